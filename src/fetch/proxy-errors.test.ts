import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { SourceError } from '../sources/_kit/errors.ts';
import { Executor } from './executor.ts';
import { WebTransport } from './impersonate.ts';
import { throughProxy } from './proxy-errors.ts';
import { isFinal, markFinal } from './retry.ts';

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function assertClean(e: unknown, secrets: string[]): SourceError {
  assert.ok(e instanceof SourceError, String(e));
  for (const s of secrets) assert.ok(!e.message.includes(s), `the user's message names ${s}: ${e.message}`);
  assert.ok(!(e.detail ?? '').includes('s3cret'), `the log's detail keeps the password: ${e.detail}`);
  return e;
}

test('undici and wreq texts of a refused, unnamed or tunnelling proxy become "the proxy could not be used", retryable, address in the detail only', () => {
  const url = 'http://bob:s3cret@10.0.0.5:3128';
  const cases: Array<[string, string]> = [
    ['ECONNREFUSED fetching example.com: connect ECONNREFUSED 10.0.0.5:3128', 'connection refused'],
    ['ENOTFOUND fetching example.com: getaddrinfo ENOTFOUND 10.0.0.5 (the name does not resolve)', 'its name does not resolve'],
    ['ECONNREFUSED fetching example.com: Error: GET https://example.com/x: client error (ProxyConnect): tunnel error: failed to create underlying connection: tcp connect error: Connection refused (os error 111)', 'connection refused'],
    ['EPROXY fetching example.com: Error: client error (ProxyConnect): SOCKS error: failed to create underlying connection: tcp connect error', 'refused the tunnel'],
    ['network fetching example.com: Proxy response (502) !== 200 when HTTP Tunneling', 'refused the tunnel'],
  ];
  for (const [text, why] of cases) {
    const out = assertClean(throughProxy(markFinal(new SourceError('network', text)), url, 'example.com'), ['10.0.0.5', '3128', 's3cret', 'bob']);
    assert.equal(out.message, `the proxy could not be used fetching example.com: ${why}`);
    assert.equal(out.retryable, true);
    assert.equal(isFinal(out), false, 'another proxy may answer: never final');
    assert.match(out.detail ?? '', /via http:\/\/bob:\*\*\*@10\.0\.0\.5:3128/);
  }
});

test('a target error through a proxy keeps its words, without the proxy; other error types pass unchanged', () => {
  const url = 'socks5://u:s3cret@proxy.internal:1080';
  const reset = assertClean(throughProxy(new SourceError('network', 'ECONNRESET fetching example.com: other side closed'), url, 'example.com'), ['proxy.internal', 's3cret']);
  assert.equal(reset.message, 'ECONNRESET fetching example.com: other side closed');
  const blocked = new SourceError('blocked', 'blocked: 403 from example.com');
  assert.equal(throughProxy(blocked, url, 'example.com'), blocked);
  const named = assertClean(throughProxy(new SourceError('network', 'ETIMEDOUT fetching example.com: read from proxy.internal:1080 timed out'), url, 'example.com'), ['proxy.internal', '1080', 's3cret']);
  assert.equal(named.message, 'the proxy could not be used fetching example.com: timed out');
});

for (const profile of ['node', 'chrome'] as const) {
  test(`${profile} transport: a dead proxy (refused, or a name that does not resolve) fails the attempt without naming it, retryable, never final`, async (t) => {
    const port = await deadPort();
    for (const proxy of [`http://bob:s3cret@127.0.0.1:${port}`, `socks5://bob:s3cret@127.0.0.1:${port}`, 'http://bob:s3cret@proxy.invalid:3128']) {
      const ex = new Executor({ allowPrivateTargets: true, retries: 0, timeoutMs: 5000, fetchProfile: profile, proxyUrls: [proxy] },
        profile === 'chrome' ? { transport: new WebTransport({ guard: { allowPrivate: true }, insecure: true }) } : {});
      t.after(() => ex.close());
      const err = await ex.run({ kind: 'page', url: 'https://example.com/x', expect: 'html' }, ex.sessionFor('q')).then(() => undefined, (e: unknown) => e);
      const out = assertClean(err, ['127.0.0.1', String(port), 'proxy.invalid', 's3cret']);
      assert.match(out.message, /^the proxy could not be used fetching example\.com: /, `${proxy}: ${out.message}`);
      assert.equal(out.type, 'network');
      assert.equal(isFinal(out), false, `${proxy}: a proxy's missing name is not the target's`);
    }
  });
}
