import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Executor } from './executor.ts';
import { loadHar, normalizeUrl, ReplayTransport, type HarEntry, type HarLog } from './har.ts';
import { undecoded } from './lazy-body.ts';
import { loopback } from './loopback.testkit.ts';
import { SourceError } from '../sources/_kit/errors.ts';
import type { Step } from '../sources/_kit/adapter.ts';

const step = (url: string, extra: Partial<Step> = {}): Step => ({ kind: 'test', url, expect: 'text', ...extra });
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-har-'));

test('normalizeUrl: query order, fragment, default port, host case', () => {
  assert.equal(normalizeUrl('https://Maps.Google.com:443/search?q=a&hl=en#x'), 'https://maps.google.com/search?hl=en&q=a');
  assert.equal(normalizeUrl('http://h/p?b=2&a=1&b=1'), 'http://h/p?a=1&b=2&b=1');
  assert.equal(normalizeUrl('http://h/p?a=1&ei=xyz', new Set(['ei'])), 'http://h/p?a=1');
  assert.equal(normalizeUrl('http://h/p?a=1', 'all'), 'http://h/p');
});

test('record from a loopback server, then replay with the server stopped', async (t) => {
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'run.har');
  const srv = await loopback((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/search?hl=en&q=coffee', 'set-cookie': 'NID=1; Path=/' });
      return res.end();
    }
    if (req.url?.startsWith('/search')) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' });
      return res.end(zlib.gzipSync(Buffer.from(`)]}'\n{"q":"${new URL(req.url, 'http://x').searchParams.get('q')}","cookie":"${req.headers.cookie ?? ''}"}`)));
    }
    if (req.method === 'POST') return res.end(`posted ${req.headers['content-length']}`);
    res.writeHead(404);
    res.end();
  });
  const rec = new Executor({ allowPrivateTargets: true, retries: 0, recordHar: file });
  const live1 = await rec.run(step(`${srv.url}/redirect`), rec.sessionFor('s'));
  const live2 = await rec.run(step(`${srv.url}/search?q=tea&hl=en`));
  const live3 = await rec.run(step(`${srv.url}/rpc`, { method: 'POST', body: 'f.req=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  await assert.rejects(rec.run(step(`${srv.url}/nothing`)), (e: unknown) => e instanceof SourceError && e.type === 'not_found');
  await rec.close();
  await srv.close();

  const har = JSON.parse(fs.readFileSync(file, 'utf8')) as HarLog;
  assert.equal(har.log.version, '1.2');
  assert.equal(har.log.entries.length, 5, 'redirect hop, its target, search, POST, the 404');
  const first = har.log.entries[0];
  assert.equal(first.response.status, 302);
  assert.equal(first.response.redirectURL, `${srv.url}/search?hl=en&q=coffee`);
  assert.ok(first.request.headers.some((h) => h.name === 'user-agent'));
  assert.equal(har.log.entries[1].request.headers.find((h) => h.name === 'cookie')?.value, '***', 'cookies redacted on disk');
  assert.equal(har.log.entries[1].response.content.text, live1.body, 'decoded text is stored, not gzip bytes');
  assert.equal(har.log.entries[3].request.postData?.text, 'f.req=1');

  // Server is gone: everything below is served from the file.
  const events: string[] = [];
  const rep = new Executor({ allowPrivateTargets: true, retries: 3, replayHar: file }, { onEvent: (e) => e.type === 'request' && events.push(`${e.status}${e.replayed ? 'r' : ''}`) });
  t.after(() => rep.close());
  const r1 = await rep.run(step(`${srv.url}/redirect`), rep.sessionFor('s'));
  assert.deepEqual(r1, live1);
  assert.match(r1.body, /"cookie":"NID=1"/);
  // Query order differs from the recording: still matched.
  assert.deepEqual(await rep.run(step(`${srv.url}/search?hl=en&q=tea`)), { ...live2, url: `${srv.url}/search?hl=en&q=tea` });
  assert.deepEqual(await rep.run(step(`${srv.url}/rpc`, { method: 'POST', body: 'f.req=1' })), live3);
  await assert.rejects(rep.run(step(`${srv.url}/nothing`)), (e: unknown) => e instanceof SourceError && e.type === 'not_found');
  assert.deepEqual(events, ['302r', '200r', '200r', '200r', '404r']);
  await assert.rejects(rep.run(step(`${srv.url}/search?q=unrecorded`)), (e: unknown) => {
    assert.ok(e instanceof SourceError && e.type === 'network');
    assert.match(e.message, /no recorded response for GET http:\/\/127\.0\.0\.1:\d+\/search\?q=unrecorded/);
    return true;
  });
  assert.equal(events.length, 5, 'a replay miss is not retried');
});

function entry(url: string, body: string, status = 200, method = 'GET'): HarEntry {
  return {
    startedDateTime: new Date(0).toISOString(), time: 1,
    request: { method, url, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
    response: { status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'Content-Type', value: 'text/plain' }], content: { size: body.length, mimeType: 'text/plain', text: body }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {}, timings: { send: 0, wait: 1, receive: 0 },
  };
}

const sig = new AbortController().signal;
const send = (t: ReplayTransport, url: string, method = 'GET') => t.send({ url, method, headers: {}, signal: sig, maxBytes: 1e6 });

test('replay fallbacks: volatile params, whole path; none is strict', async () => {
  const entries = [entry('https://www.google.com/maps/search?q=coffee&ei=AAA&hl=en', 'coffee'), entry('https://example.com/page?sid=1', 'page')];
  const strict = new ReplayTransport(entries, { fallback: 'none' });
  const vol = new ReplayTransport(entries, { fallback: 'volatile' });
  const loose = new ReplayTransport(entries, { fallback: 'path' });
  const u = 'https://www.google.com/maps/search?hl=en&q=coffee&ei=BBB';
  await assert.rejects(send(strict, u), /no recorded response/);
  assert.equal((await send(vol, u)).body, 'coffee');
  await assert.rejects(send(vol, 'https://example.com/page?sid=2'), /no recorded response/);
  assert.equal((await send(loose, 'https://example.com/page?sid=2')).body, 'page');
  await assert.rejects(send(loose, 'https://example.com/page?sid=2', 'POST'), /no recorded response for POST/);
  const custom = new ReplayTransport(entries, { fallback: 'volatile', volatileParams: ['sid'] });
  assert.equal((await send(custom, 'https://example.com/page?sid=9')).body, 'page');
});

test('repeated URL: recorded order is served, the last entry repeats; base64 bodies decode', async () => {
  const b64 = entry('https://h/bin', '');
  b64.response.content = { size: 4, mimeType: 'text/plain; charset=utf-8', text: Buffer.from('café').toString('base64'), encoding: 'base64' };
  const t = new ReplayTransport([entry('https://h/x', 'busy', 503), entry('https://h/x', 'ok'), b64]);
  assert.equal((await send(t, 'https://h/x')).status, 503);
  assert.equal((await send(t, 'https://h/x')).body, 'ok');
  assert.equal((await send(t, 'https://h/x')).body, 'ok');
  assert.equal((await send(t, 'https://h/bin')).body, 'café');
});

test("a replayed body comes as the network's: fresh bytes each time, undecoded until read, the recorded text once read", async () => {
  const text = '{"name":"Café Ōsaka ☕","n":1}';
  const latin = entry('https://h/latin', 'ça va');
  latin.response.headers = [{ name: 'Content-Type', value: 'text/html; charset=windows-1252' }];
  const t = new ReplayTransport([entry('https://h/j', text), latin, entry('https://h/lone', 'a\ud800b'), entry('https://h/bom', '\ufeffhead')]);
  const [a, b] = [await send(t, 'https://h/j'), await send(t, 'https://h/j')];
  const [ra, rb] = [undecoded(a), undecoded(b)];
  assert.ok(ra && rb, 'bytes, not a text decoded at once');
  assert.notEqual(ra.bytes, rb.bytes, 'a copy a response');
  assert.equal(ra.bytes.toString('utf8'), text);
  assert.equal(a.bytes, Buffer.byteLength(text));
  assert.equal(a.body, text);
  assert.equal(undecoded(a), undefined, 'dropped once read');
  // Its charset said windows-1252 when recorded: the text is what was recorded, not its bytes read as that.
  assert.equal((await send(t, 'https://h/latin')).body, 'ça va');
  // Texts whose UTF-8 bytes would not decode back to them are served as the text.
  for (const [url, body] of [['https://h/lone', 'a\ud800b'], ['https://h/bom', '\ufeffhead']]) {
    const r = await send(t, url);
    assert.equal(undecoded(r), undefined);
    assert.equal(r.body, body);
  }
});

test('a directory: one file per recording run, all loaded for replay; bad input is a clear error', async (t) => {
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const srv = await loopback((req, res) => res.end(`body of ${req.url}`));
  t.after(() => srv.close());
  for (const p of ['/one', '/two']) {
    const ex = new Executor({ allowPrivateTargets: true, recordHar: dir });
    await ex.run(step(`${srv.url}${p}`));
    await ex.close();
    await new Promise((r) => setTimeout(r, 1100)); // file names carry the second
  }
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.har'));
  assert.equal(files.length, 2);
  assert.equal(loadHar(dir).length, 2);
  const rep = new Executor({ replayHar: dir });
  t.after(() => rep.close());
  assert.equal((await rep.run(step(`${srv.url}/two`))).body, 'body of /two');

  assert.throws(() => loadHar(path.join(dir, 'missing.har')), /REPLAY_HAR: cannot read/);
  fs.writeFileSync(path.join(dir, 'broken.har'), '{not json');
  assert.throws(() => loadHar(dir), /broken\.har is not a HAR file/);
});

test('replay with the SSRF guard: literal checks still apply, no DNS is needed', async (t) => {
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'x.har');
  fs.writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, pages: [], entries: [entry('https://shop.example/contact', 'mail@shop.example'), entry('http://169.254.169.254/', 'meta')] } }));
  const rep = new Executor({ replayHar: file });
  t.after(() => rep.close());
  assert.equal((await rep.run(step('https://shop.example/contact', { userUrl: true }))).body, 'mail@shop.example');
  await assert.rejects(rep.run(step('http://169.254.169.254/', { userUrl: true })), (e: unknown) => e instanceof SourceError && e.type === 'forbidden_target');
});
