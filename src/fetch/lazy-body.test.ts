import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyFrom, jsonOfBody, undecoded, withBody } from './lazy-body.ts';
import { stripXssi } from '../sources/_kit/xssi.ts';
import { decodeText } from './decode.ts';

test('withBody: the bytes until the body is read, then the text decodeText makes of them, once', () => {
  const bytes = Buffer.from(`)]}'\n[["Café","9\u202fAM\u20135\u202fPM","😀"]]`);
  const res = withBody({ status: 200, url: 'https://x.test/', headers: {} }, bytes, 'application/json');
  assert.deepEqual(undecoded(res), { bytes, contentType: 'application/json' });
  assert.deepEqual(Object.keys(res), ['status', 'url', 'headers', 'body'], 'body is an ordinary enumerable field');
  const text = res.body;
  assert.equal(text, decodeText(bytes, 'application/json'));
  assert.equal(undecoded(res), undefined, 'read: no longer bytes');
  bytes.fill(0x20);
  assert.equal(res.body, text, 'decoded once and kept');
  assert.deepEqual(JSON.parse(JSON.stringify(res)).body, text);
  res.body = 'replaced';
  assert.equal(res.body, 'replaced');
});

test('withBody: a charset other than UTF-8 decodes as the header says; bodyFrom keeps a body undecoded', () => {
  const latin = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]);
  const res = withBody({ status: 200 }, latin, 'text/plain; charset=windows-1252');
  const moved = bodyFrom({ status: 201 }, res);
  assert.equal(undecoded(moved)?.bytes, latin, 'the rebuilt response still holds the bytes');
  assert.equal(undecoded(res)?.bytes, latin);
  assert.equal(moved.body, 'café €');
  assert.deepEqual({ ...moved }, { status: 201, body: 'café €' });
  // A body already read moves as its text.
  const read = withBody({}, Buffer.from('x'), undefined);
  void read.body;
  const plain = bodyFrom({}, read);
  assert.equal(undecoded(plain), undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(plain, 'body')?.value, 'x');
});

test('jsonOfBody: JSON past the anti-XSSI line from the bytes, which stay undecoded; another charset from the text', () => {
  const text = `\ufeff)]}'\n[["Café",[1,"9\u202fAM\u20135\u202fPM"]],{"a":"😀"}]`;
  const res = withBody({ status: 200 }, Buffer.from(text), 'application/json');
  assert.deepEqual(jsonOfBody(res), JSON.parse(stripXssi(text.slice(1))));
  assert.ok(undecoded(res), 'parsed from the bytes: never decoded whole');
  const latin = withBody({}, Buffer.from([0x5b, 0x22, 0xe9, 0x80, 0x22, 0x5d]), 'application/json; charset=windows-1252');
  assert.deepEqual(jsonOfBody(latin), ['é€']);
  assert.deepEqual(jsonOfBody({ body: ")]}'\n[2]" }), [2], 'a text body');
  assert.throws(() => jsonOfBody(withBody({}, Buffer.from(")]}'\n[1,"), 'application/json')), SyntaxError);
});
