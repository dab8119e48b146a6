/**
 * Logs never hold keys: a call with the key in the header and one with `apiKey` in the query string
 * leave request-id-tagged JSON lines without either key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { startHarness } from './support/harness.ts';
import { createLogger } from '../src/ops/log.ts';
import { spellingsOf } from '../src/ops/key-spellings.testkit.ts';

test('structured request logs with request ids and no secrets', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  const h = await startHarness();
  (h.svc.ctx as any).log = createLogger('info', sink);
  try {
    await h.get('/maps/search?query=n=1&async=false');
    await h.get(`/profile/balance?apiKey=${encodeURIComponent(h.key)}`, { key: null });
    await h.get('/profile/balance', { key: 'trw_wrong_key_value' });
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('');
    assert.ok(!all.includes(h.key), 'the API key never appears');
    assert.ok(!all.includes('trw_wrong_key_value'), 'nor a wrong key');
    const http = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'http');
    assert.equal(http.length, 3);
    assert.ok(http.every((l) => typeof l.reqId === 'string' && l.reqId.length > 10));
    assert.match(http[1].url, /apiKey=\[redacted\]/);
    assert.deepEqual(http.map((l) => l.status), [200, 200, 401]);
  } finally { await h.close(); }
});

test('the key is masked in every spelling the reader accepts, in URLs and in errors', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  const h = await startHarness();
  (h.svc.ctx as any).log = createLogger('info', sink);
  try {
    const key = encodeURIComponent(h.key);
    const spellings = [`apiKey[]=${key}`, `api%4Bey=${key}`, `%61piKey=${key}`, `apiKey%5B%5D=${key}`, `APIKEY=${key}&apiKey=${key}`];
    for (const s of spellings) {
      const res = await h.get(`/profile/balance?${s}`, { key: null });
      assert.equal(res.status, 200, `${s} authenticates, as the reader accepts it`);
    }
    // A request that fails inside the server: its error line must not carry the key either.
    await h.get(`/profile/balance?apiKey=${key}&x=%E0%A4%A`, { key: null });
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('');
    assert.ok(!all.includes(h.key), `the API key never appears:\n${lines.filter((l) => l.includes(h.key)).join('\n')}`);
    const http = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'http');
    assert.equal(http.length, spellings.length + 1);
    assert.ok(http.every((l) => /\[redacted\]/.test(l.url)));
  } finally { await h.close(); }
});

test('a trawl key is masked wherever a logged line holds it: 14 spellings the server does not take as a key', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  const h = await startHarness();
  (h.svc.ctx as any).log = createLogger('info', sink);
  try {
    const k = h.key;
    const enc = encodeURIComponent(k);
    const rest = k.slice(4);
    const paths = [
      `/profile/balance?key=${enc}`, `/profile/balance?token=${enc}`, `/profile/balance?access_token=${enc}`,
      `/profile/balance?apiKey[0]=${enc}`, `/profile/balance?apiKeys=${enc}`, `/profile/balance?apikey%5B0%5D=${enc}`,
      `/profile/${enc}`, `/requests/${enc}?x=1`, `/maps/search?query=${encodeURIComponent(`coffee ${k}`)}`,
      `/maps/search?webhook=${encodeURIComponent(`https://hooks.example/x?key=${k}`)}`, `/profile/balance?key=trw%5F${rest}`,
      `/profile/balance?key=%74rw_${rest}`, `/profile/balance?q=${encodeURIComponent(encodeURIComponent(k)).replace('trw', 'TRW')}`,
      `/profile/balance?${enc}`,
    ];
    assert.equal(paths.length, 14);
    for (const p of paths) await h.get(p, { key: null });
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('');
    assert.equal(lines.filter((l) => JSON.parse(l).msg === 'http').length, 14, 'each call was logged');
    assert.ok(!all.includes(rest), `no key in the log:\n${lines.filter((l) => l.includes(rest)).join('\n')}`);
    assert.ok(!/trw(_|%5f)/i.test(all), 'nothing key-shaped left');
  } finally { await h.close(); }
});

test('issue 39: a key double-encoded, as HTML entities or without its prefix leaves no trace, in the request lines and in the worker\'s "query attempt failed" lines', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  // The service's logger, so the runner's attempt lines go to the same sink as the request lines.
  const h = await startHarness({ log: createLogger('info', sink) });
  try {
    const rest = h.key.slice(4);
    const spellings = spellingsOf(h.key);
    for (const s of spellings) {
      await h.get(`/profile/balance?q=${encodeURIComponent(s)}`);
      await h.get(`/profile/balance?q=${s}`);
      const r = await h.json(`/maps/search?query=${encodeURIComponent(`fail;k=${s}`)}&async=false`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    await new Promise((r) => setTimeout(r, 100));
    const failed = lines.filter((l) => l.includes('query attempt failed'));
    assert.equal(failed.length, spellings.length, 'each failed query was logged');
    const leaks = lines.filter((l) => l.includes(rest.slice(0, 10)) || l.includes(rest.slice(-10)));
    assert.deepEqual(leaks, [], 'no part of the key in any line');
  } finally { await h.close(); }
});
