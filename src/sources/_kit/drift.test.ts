import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driftProblems, embeddedJson, mutations, recordsBlock } from './drift.ts';

const before = [{ query: 'q', item_id: '1', name: 'Large Margherita', price: 18.99, tags: ['a', 'b'] }, { query: 'q', item_id: '2', name: 'Garlic Knots', price: 6.5, tags: [] }];

test('verdicts: the same or less passes; another value, a stranger, an empty success do not', () => {
  assert.deepEqual(driftProblems(before, before), []);
  assert.deepEqual(driftProblems(before, [{ ...before[0], price: null, tags: ['a'] }]), []);
  assert.deepEqual(driftProblems(before, [{ ...before[0], price: 19 }]), [], 'a rounded fallback is the same price');
  assert.match(driftProblems(before, [{ ...before[0], price: 6.5 }])[0]!, /^price: 6.5 where the original has 18.99/);
  assert.match(driftProblems(before, [{ ...before[0], tags: ['c'] }])[0]!, /^tags/);
  assert.match(driftProblems(before, [{ query: 'q', item_id: '9', name: 'AD x' }])[0]!, /a record the original does not have/);
  assert.deepEqual(driftProblems(before, [{ query: 'q', item_id: '9', name: 'AD x', sponsored: true }]), [], 'an ad that says so');
  assert.match(driftProblems(before, [])[0]!, /empty success/);
});

test('verdicts: a record repeated in the sample is still found by its id; an id-less record by its values', () => {
  const twice = [before[0], before[1], before[0]];
  assert.deepEqual(driftProblems(twice, [before[0], { ...before[1], price: null }]), []);
  assert.match(driftProblems(twice, [{ ...before[0], price: 6.5 }])[0]!, /^price: 6.5 where/);
  const shared = [{ ...before[0], shop_id: 's' }, { ...before[1], shop_id: 's' }];
  assert.match(driftProblems(shared, [{ query: 'q', shop_id: 's', name: 'AD x' }])[0]!, /a record the original does not have/, 'a shared id identifies none');
  const idless = [{ query: 'q', suggestion: 'pizza near me', type: 'query' }, { query: 'q', suggestion: 'Main St', type: 'place', name: 'Main St', address: 'Springfield' }];
  assert.deepEqual(driftProblems(idless, [idless[0], { ...idless[1], address: null }]), []);
  assert.match(driftProblems(idless, [{ ...idless[1], name: 'Springfield', address: 'Main St' }])[0]!, /a record the original does not have/);
  assert.match(driftProblems(idless, [{ ...idless[1], type: 'query' }])[0]!, /a record the original does not have/);
  // A record that lost its own id is the original's or less by its values; a value lost inside a list's object is less too.
  assert.deepEqual(driftProblems(before, [{ ...before[0], item_id: null }]), []);
  assert.match(driftProblems(before, [{ ...before[0], item_id: null, name: 'AD Large Margherita' }])[0]!, /a record the original does not have/);
  const replies = [{ query: 'q', review_id: 'r1', replies: [{ text: 'Thanks', at: 1772 }] }];
  assert.deepEqual(driftProblems(replies, [{ ...replies[0], replies: [{ text: 'Thanks', at: null }] }]), []);
  assert.match(driftProblems(replies, [{ ...replies[0], replies: [{ text: 'Thanks', at: 1999 }] }])[0]!, /^replies/);
});

test('mutations: every kind, at the nodes records come from, the same for the same seed', () => {
  const doc = { data: { lists: [{ name: 'Pizzas', items: [{ id: '1', name: 'Large Margherita', price: 18.99 }, { id: '2', name: 'Garlic Knots', price: 6.5 }] }] } };
  const recs = [{ item_id: '1', name: 'Large Margherita', price: 18.99 }, { item_id: '2', name: 'Garlic Knots', price: 6.5 }];
  const a = mutations(doc, recs, 'seed', 2);
  assert.deepEqual(new Set(a.map((m) => m.kind)), new Set(['rename', 'move', 'wrap', 'empty', 'ad']));
  assert.deepEqual(a.map((m) => m.where), mutations(doc, recs, 'seed', 2).map((m) => m.where));
  const ad = a.find((m) => m.kind === 'ad')!.doc as any;
  assert.equal(ad.data.lists[0].items.length, 3);
  assert.ok(ad.data.lists[0].items.some((x: any) => x.isSponsored === true && /^AD /.test(x.name)));
  assert.equal(JSON.stringify(doc).includes('AD '), false, 'the original is not touched');
});

test('page JSON: script literals and assignments found, written back in place with < escaped; the records\' block chosen', () => {
  const html = '<html><script type="application/json"><!--{"a":[1,2]}--></script><p>x</p><script>var s = 1; window.__S__ = {"items":[{"id":"1","name":"Large Margherita"}]};</script></html>';
  const blocks = embeddedJson(html);
  assert.deepEqual(blocks.map((b) => b.doc), [{ a: [1, 2] }, { items: [{ id: '1', name: 'Large Margherita' }] }]);
  assert.equal(blocks[0]!.serve({ a: ['</script>'] }), '<html><script type="application/json"><!--{"a":["\\u003c/script>"]}--></script><p>x</p><script>var s = 1; window.__S__ = {"items":[{"id":"1","name":"Large Margherita"}]};</script></html>');
  assert.equal(blocks[1]!.serve(blocks[1]!.doc), html, 'served back unchanged, the page is the same');
  assert.deepEqual(recordsBlock(html, [{ name: 'Large Margherita' }], 1)!.doc, blocks[1]!.doc);
  assert.equal(recordsBlock(html, [{ name: 'Large Margherita' }], 2), null, 'fewer record values than asked');
  assert.deepEqual(embeddedJson('<p>no scripts</p>'), []);
});
