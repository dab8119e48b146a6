import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkTally, reviewChunk } from './review-chunk.ts';

test('chunkTally: open while paging goes on; enough on the cutoff; end when the site gives no more', () => {
  const recs = [{ review_timestamp: 100 }, { review_timestamp: 50 }];
  assert.deepEqual(chunkTally('k', 40, 2, reviewChunk({ records: recs, hasMore: true })), { key: 'k', stated: 40, read: 2 });
  assert.deepEqual(chunkTally('k', 40, 2, reviewChunk({ records: recs, cutoff: 80, hasMore: true })), { key: 'k', stated: 40, read: 2, end: 'enough' });
  assert.deepEqual(chunkTally('k', null, 2, reviewChunk({ records: recs, hasMore: false })), { key: 'k', read: 2, end: 'end' });
});
