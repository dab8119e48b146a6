import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCursor, withQuery, withQueryAndCursor } from './record-fields.ts';

test('query and cursor in one copy: the same keys, in the same order, as in two steps', () => {
  const records = [
    { name: 'a', rating: 4.5, nested: { x: [1, 2] }, gone: undefined },
    { name: 'b', query: 'its own', z: 1 },
    { next_page_cursor: 'its own', name: 'c' },
    { '1': 'numeric key', name: 'd' },
    {},
  ];
  for (const cursor of ['signed.cursor', null]) {
    const two = withQuery(withCursor(records, cursor), 'coffee ☕');
    const one = withQueryAndCursor(records, 'coffee ☕', cursor);
    assert.equal(JSON.stringify(one), JSON.stringify(two));
    assert.deepEqual(one.map((r) => Object.keys(r)), two.map((r) => Object.keys(r)));
  }
  assert.deepEqual(Object.keys(withQueryAndCursor([{ name: 'a' }], 'q', null)[0]), ['query', 'name', 'next_page_cursor']);
  assert.notEqual(withQueryAndCursor(records, 'q', null)[0], records[0], 'copies: the parse result is not changed');
});
