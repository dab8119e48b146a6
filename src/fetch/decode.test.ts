import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeText, decodeUtf8 } from './decode.ts';
import { FIXTURES_ROOT, fixtureMissing } from '../sources/_kit/fixtures.ts';

/** A large body: `unit` repeated past the size where decodeUtf8 leaves the plain decoder. */
const big = (unit: Buffer) => Buffer.concat(Array.from({ length: Math.ceil(40_000 / unit.length) }, () => unit));

test('decodeUtf8 returns exactly what Buffer#toString("utf8") returns, on every route', () => {
  const cases: Record<string, Buffer> = {
    'small mixed': Buffer.from('café ⋅ 東京 😀'),
    'large ASCII': big(Buffer.from('[["coffee",null,1.5,"a\\u003db"],')),
    'large mixed (Latin-1, Greek, CJK, astral)': big(Buffer.from('["Καφές","café","東京","😀 ☕","⋅"],')),
    'large Latin-1 only': big(Buffer.from('["Café Müller","Straße"],')),
    // Lone continuation, truncated 2/3/4-byte sequences, overlong '/', an encoded surrogate, 0xFF.
    'large invalid UTF-8': big(Buffer.concat([Buffer.from('ok "'), Buffer.from([0x80, 0xc3, 0x22, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff]), Buffer.from('" end ')])),
  };
  for (const [name, buf] of Object.entries(cases)) assert.equal(decodeUtf8(buf), buf.toString('utf8'), name);
});

test('decodeText strips a UTF-8 BOM on the large-body route too', () => {
  const body = big(Buffer.from('{"a":"ü·東"},'));
  assert.equal(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), 'application/json'), body.toString('utf8'));
});

test('decodeUtf8 agrees with Buffer#toString on every captured response in the fixtures', { skip: fixtureMissing(FIXTURES_ROOT) }, () => {
  const dir = FIXTURES_ROOT;
  let n = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(json|html?|txt)$/i.test(e.name)) {
        const buf = fs.readFileSync(p);
        assert.equal(decodeUtf8(buf), buf.toString('utf8'), p);
        n++;
      }
    }
  };
  walk(dir);
  assert.ok(n > 10, `only ${n} captures found`);
});
