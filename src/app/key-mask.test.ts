import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiKey, newWebhookSecret } from './keys.ts';
import { decodeFully, maskKeys } from '../ops/key-mask.ts';
import { spellingsOf } from '../ops/key-spellings.testkit.ts';

test('a key in every spelling is masked, and no part of it survives beside the mask', () => {
  for (let i = 0; i < 50; i++) {
    const key = newApiKey();
    const rest = key.slice(4);
    for (const s of spellingsOf(key)) {
      for (const line of [s, `{"msg":"query attempt failed","query":"coffee ${s} near me"}`, `GET /x?q=${s}&limit=4`, `/requests/${s}?x=1`]) {
        const out = maskKeys(line);
        assert.ok(!out.includes(rest.slice(0, 12)) && !out.includes(rest.slice(-12)), `${line} -> ${out}`);
        assert.ok(!decodeFully(out)!.includes(rest.slice(4, 16)), `${line} -> ${out}`);
        assert.match(out, /\[redacted\]/);
      }
    }
  }
});

test('webhook secrets alone are masked too; lines without a secret are left as they are', () => {
  const w = newWebhookSecret();
  assert.ok(!maskKeys(`sig ${w.slice(6)}`).includes(w.slice(6)));
  for (const line of [
    '{"level":30,"time":1764390000000,"service":"trawl","reqId":"req-1f","msg":"http","url":"/maps/search?query=coffee%20athens&limit=40&x=%E0%A4"}',
    'request 3f2b8c1e-7d4a-4b6e-9f10-2a3b4c5d6e7f ended', `digest ${'ab12'.repeat(16)} and md5 ${'0123456789abcdef'.repeat(2)}`,
    'task 20261129051500a1b2 file tasks/20261129051500a1b2.xlsx', 'Caf&eacute; &amp; bar, 100% sure', 'CONSTANT_NAME_THAT_IS_LONG_ENOUGH_X',
  ]) assert.equal(maskKeys(line), line);
});

test('decoding stops at a fixed point, bounded', () => {
  assert.equal(decodeFully('a%252541'), 'aA');
  assert.equal(decodeFully('&amp;amp;#95;'), '_');
  const deep = `trw%${'25'.repeat(40)}5F${newApiKey().slice(4)}`;
  assert.equal(decodeFully(deep), null);
  assert.equal(maskKeys(`q=${deep}`), 'q=[redacted]');
});
