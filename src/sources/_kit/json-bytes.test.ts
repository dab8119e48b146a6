import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseJsonBytes, SPLIT_DEPTH } from './json-bytes.ts';
import { stripXssi, xssiEnd } from './xssi.ts';
import { fixturePath, fixtureMissing } from './fixtures.ts';

const TEXTS = [
  '[]', ' [ ] ', '[1]', '[[],[[]],{}]', '[1,-0,2.5e-3,1E5,true,false,null]',
  '["a\\"]", "\\\\", "\\\\\\"[", "[{", "}]", "\\u005b", "é", "9\u202fAM\u20135\u202fPM", "😀", "\\ud83d\\ude00"]',
  ' [ [ "x" , [ 1 , { "a" : [ 1 , "]" ] } ] ] , { "__proto__" : [ 1 ] , "k" : 1 , "k" : 2 } , "" ]\n',
  '[[[[[[[[[["deep"]]]]]]]]],[["s",[null,[1,[2,[3]]]]]]]',
  '{"a":[1,2,[3]]}', '"a string"', '12', 'null', '\t[1,\r\n2]\t',
];

test('parseJsonBytes: the value JSON.parse gives, split at every size, whatever the nesting and the strings', () => {
  for (const text of TEXTS) {
    const bytes = Buffer.from(text);
    for (const split of [0, 1, 4, 16, 1 << 20]) {
      const got = parseJsonBytes(bytes, 0, bytes.length, split);
      assert.deepEqual(got, JSON.parse(text), `${text} split at ${split}`);
      // Own keys as JSON.parse makes them (a `__proto__` key is a field, not the prototype).
      assert.equal(JSON.stringify(got), JSON.stringify(JSON.parse(text)));
    }
  }
});

test('parseJsonBytes: what JSON.parse rejects throws a SyntaxError, split or not', () => {
  const bad = ['', ' ', '[', ']', '[1,]', '[,1]', '[1,,2]', '[1 2]', '[1,2', '[1,2]]', '[1,2] x', '["a\\"]', '[{]}',
    '[tru]', '[1,[2,]]', '[1,[2 3]]', '["a",]', '[[1]2]', '[1}', '["\u0001"]', '[01]', '[1,"x]', '[[1,2],[3,4]', '[[1,2]x,3]', '[[1] [2]]', '[[1,2},3]', '[{"a":[1,2]]}]'];
  for (const text of bad) {
    assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse accepts ${text}`);
    for (const split of [0, 1, 1 << 20]) assert.throws(() => parseJsonBytes(Buffer.from(text), 0, Buffer.byteLength(text), split), SyntaxError, `${text} split at ${split}`);
  }
});

test('parseJsonBytes: bytes that are not UTF-8 decode as toString(utf8) decodes them', () => {
  const bytes = Buffer.concat([Buffer.from('["a'), Buffer.from([0xff, 0xc3]), Buffer.from('",["'), Buffer.from([0xe2, 0x80]), Buffer.from('"]]')]);
  for (const split of [0, 1 << 20]) assert.deepEqual(parseJsonBytes(bytes, 0, bytes.length, split), JSON.parse(bytes.toString('utf8')));
});

test('parseJsonBytes: deeper than SPLIT_DEPTH, the rest is parsed whole', () => {
  const text = '['.repeat(SPLIT_DEPTH + 3) + '1' + ']'.repeat(SPLIT_DEPTH + 3);
  assert.deepEqual(parseJsonBytes(Buffer.from(text), 0, text.length, 0), JSON.parse(text));
});

test('xssiEnd: where stripXssi starts the text', () => {
  for (const text of [")]}'\n[1]", ")]}'", "\ufeff )]}'\r\n[1]", ' \n[1]', '[1]', "\ufeff\ufeff[1]", "x)]}'\n[1]", '']) {
    const bytes = Buffer.from(text);
    assert.equal(bytes.toString('utf8', xssiEnd(bytes)), stripXssi(text), JSON.stringify(text));
  }
});

const CAPTURE = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
test('parseJsonBytes: the map search capture (191 KB) as JSON.parse reads it, at the default split', { skip: fixtureMissing(CAPTURE) }, () => {
  const text = `)]}'\n${readFileSync(CAPTURE, 'utf8')}`;
  const bytes = Buffer.from(text);
  assert.deepEqual(parseJsonBytes(bytes, xssiEnd(bytes)), JSON.parse(stripXssi(text)));
});
