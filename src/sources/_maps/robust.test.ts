/**
 * Parsers on broken inputs: truncated, reordered, re-typed and empty variants of the real captures,
 * generated here at test time. The contract: a missing or odd branch is a null field; no place at all
 * (or not JSON) is SourceError('layout_changed'); nothing else is ever thrown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceError } from '../_kit/errors.ts';
import { placeFromNode } from './node.ts';
import { extractPlaceFromHtml, parsePlaceBody } from './place-parse.ts';
import { recordShapeErrors, type PlaceRecord } from './record.ts';
import { EMPTY_BODIES, EN, EL, HTML, ODD_VALUES, fixture, missing, mutated, shuffled, truncations } from './test-support.ts';

function layoutChanged(fn: () => unknown, label: string): void {
  assert.throws(fn, (e: unknown) => e instanceof SourceError && e.type === 'layout_changed', label);
}

/** Parses, or accepts layout_changed; anything else fails. Returns the record when there is one. */
function parsesOrLayoutChanged(fn: () => PlaceRecord, label: string): PlaceRecord | null {
  try {
    const r = fn();
    assert.deepEqual(recordShapeErrors(r as unknown as Record<string, unknown>), [], label);
    return r;
  } catch (e) {
    if (e instanceof SourceError && e.type === 'layout_changed') return null;
    throw new Error(`${label}: threw ${String(e)}`, { cause: e });
  }
}

test('empty and non-JSON place bodies are layout_changed', () => {
  for (const b of EMPTY_BODIES) layoutChanged(() => parsePlaceBody(b), JSON.stringify(b));
  for (const b of ['[]', '[[]]', '[null,null,null,null,null,null,[]]', '[null,null,null,null,null,null,{"11":"x"}]']) {
    layoutChanged(() => parsePlaceBody(b), b);
  }
});

test('a constructed minimal place node gives a record with only its name and nulls', () => {
  const node: unknown[] = [];
  node[11] = 'Constructed Cafe';
  const r = parsePlaceBody(JSON.stringify([null, null, null, null, null, null, node]));
  assert.equal(r.name, 'Constructed Cafe');
  assert.deepEqual(recordShapeErrors(r as unknown as Record<string, unknown>), []);
  assert.equal(r.query, '', 'no query given');
  const filled = Object.entries(r).filter(([k, v]) => v !== null && k !== 'query').map(([k]) => k);
  assert.deepEqual(filled.sort(), ['business_status', 'name'].sort());
});

for (const [name, file] of [['en', EN], ['el', EL]] as const) {
  test(`truncated ${name} place bodies are layout_changed`, { skip: missing(file) }, () => {
    const text = fixture(file);
    for (const t of truncations(text)) layoutChanged(() => parsePlaceBody(t), `cut at ${t.length}`);
    for (const t of truncations(")]}'\n" + text)) layoutChanged(() => parsePlaceBody(t), `prefixed, cut at ${t.length}`);
  });

  test(`${name} place body with and without the )]}' line parse the same`, { skip: missing(file) }, () => {
    const text = fixture(file);
    assert.deepEqual(parsePlaceBody(")]}'\n" + text), parsePlaceBody(text));
  });

  test(`reordered ${name} place nodes never throw anything but layout_changed`, { skip: missing(file) }, () => {
    const data = JSON.parse(fixture(file)) as unknown[];
    const node = data[6] as unknown[];
    for (let seed = 1; seed <= 40; seed++) {
      // Entries shuffled, the name kept at [11] so the node still is a place: every field must come
      // out null or well-typed (never a crash, never a wrong type).
      const copy = data.slice();
      const sh = shuffled(node, seed);
      const at = sh.indexOf(node[11]);
      [sh[11], sh[at]] = [sh[at], sh[11]];
      copy[6] = sh;
      const r = parsesOrLayoutChanged(() => parsePlaceBody(JSON.stringify(copy)), `shuffle seed ${seed}`);
      assert.equal(r?.name, node[11], `shuffle seed ${seed} keeps the name`);
      // Each nested branch reordered too (positions inside [4], [183], ... move).
      const deep = (node as unknown[]).map((v, i) => (i !== 11 && Array.isArray(v) ? shuffled(v, seed + i) : v));
      copy[6] = deep;
      parsesOrLayoutChanged(() => parsePlaceBody(JSON.stringify(copy)), `deep shuffle seed ${seed}`);
    }
    // Reversed top level: [6] is no longer the node.
    layoutChanged(() => parsePlaceBody(JSON.stringify(data.slice().reverse())), 'reversed top level');
  });

  test(`${name}: every node slot set to every odd type still maps (no throw, right types)`, { skip: missing(file) }, () => {
    const node = (JSON.parse(fixture(file)) as unknown[])[6] as unknown[];
    for (let i = 0; i < node.length; i++) {
      for (const oddValue of ODD_VALUES) {
        const odd = structuredClone(oddValue);
        const copy = node.slice();
        copy[i] = odd;
        if (i === 11 && typeof odd !== 'string') continue; // no name: not a place node (covered above)
        const r = placeFromNode(copy);
        const errs = recordShapeErrors(r as unknown as Record<string, unknown>);
        assert.deepEqual(errs, [], `slot ${i} = ${JSON.stringify(odd)}`);
      }
    }
  });

  test(`${name}: deep random mutations still map`, { skip: missing(file) }, () => {
    const data = JSON.parse(fixture(file)) as unknown[];
    for (let seed = 1; seed <= 150; seed++) {
      const m = mutated(data, seed, 25) as unknown[];
      parsesOrLayoutChanged(() => parsePlaceBody(JSON.stringify(m)), `mutation seed ${seed}`);
    }
  });
}

test('place page HTML: truncated, stripped or emptied pages are layout_changed', { skip: missing(HTML) }, () => {
  const html = fixture(HTML);
  const at = html.indexOf('APP_INITIALIZATION_STATE');
  // Cut inside the state literal, before it, and just after the mark.
  for (const cut of [at - 1, at + 30, at + 5000, at + 100000]) layoutChanged(() => extractPlaceFromHtml(html.slice(0, cut)), `cut at ${cut}`);
  layoutChanged(() => extractPlaceFromHtml(html.replaceAll('APP_INITIALIZATION_STATE', 'APP_STATE_RENAMED')), 'renamed');
  layoutChanged(() => extractPlaceFromHtml(html.replaceAll(")]}'\\n", 'XSSI')), 'no prefixed bodies');
  for (const b of EMPTY_BODIES) layoutChanged(() => extractPlaceFromHtml(b), JSON.stringify(b));
  // The place body moved from [3][6] to another slot of [3] is still found.
  const i = html.indexOf('APP_INITIALIZATION_STATE=') + 'APP_INITIALIZATION_STATE='.length;
  const end = html.indexOf(';window.APP_FLAGS', i);
  const state = JSON.parse(html.slice(i, end)) as unknown[][];
  const s3 = state[3] as unknown[];
  [s3[2], s3[6]] = [s3[6], null];
  const moved = html.slice(0, i) + JSON.stringify(state) + html.slice(end);
  assert.equal(extractPlaceFromHtml(moved).name, 'Tipsy Sticks');
});

test('constructed page: state with single quotes and brackets inside strings is cut correctly', () => {
  const body = ")]}'\n" + JSON.stringify([null, null, null, null, null, null, Object.assign([], { 11: 'Bracket ] [ Cafe "quoted"' })]);
  const state = [null, null, null, [null, null, null, null, null, null, body]];
  const html = `<html><script>var x='[';window.APP_INITIALIZATION_STATE=${JSON.stringify(state)};window.APP_FLAGS=[1];</script></html>`;
  assert.equal(extractPlaceFromHtml(html).name, 'Bracket ] [ Cafe "quoted"');
});

test('category: the "See nearby" block that does not read gives null, never the first type in its place', { skip: missing(EN) }, () => {
  const node = (JSON.parse(fixture(EN)) as unknown[])[6] as unknown[];
  const own = placeFromNode(node);
  assert.equal(own.category, 'restaurants');
  assert.ok(own.type && own.type !== own.category);
  const wrapped = node.slice();
  wrapped[164] = [[node[164]]];
  assert.deepEqual([placeFromNode(wrapped).category, placeFromNode(wrapped).type], [null, own.type]);
  // No block at all: the first type is the category, as the site shows it.
  const none = node.slice();
  none[164] = null;
  assert.equal(placeFromNode(none).category, own.type);
  // The slots before it shifted by one (a slot added or dropped): the block one slot off, the category unknown.
  for (const shifted of [[...node.slice(0, 40), null, ...node.slice(40)], [...node.slice(0, 40), ...node.slice(41)]]) {
    assert.deepEqual([placeFromNode(shifted).category, placeFromNode(shifted).type], [null, own.type]);
  }
});

test('types: one that does not read leaves type and subtypes null, never the next type as the first', { skip: missing(EN) }, () => {
  const node = (JSON.parse(fixture(EN)) as unknown[])[6] as unknown[];
  const types = ['', 'Greek restaurant'];
  const emptied = node.slice();
  emptied[13] = types;
  const r = placeFromNode(emptied);
  assert.deepEqual([r.type, r.subtypes, r.category], [null, null, 'restaurants']);
  emptied[13] = ['Restaurant', 'Greek restaurant'];
  assert.deepEqual([placeFromNode(emptied).type, placeFromNode(emptied).subtypes], ['Restaurant', 'Restaurant, Greek restaurant']);
});
