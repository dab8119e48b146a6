import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credentialFor, credentialsFromEnv } from './credentials.ts';
import { Executor } from './executor.ts';
import type { Transport, TransportRequest, TransportResponse } from './transport.ts';
import { executorSettingsFromEnv } from './settings.ts';

const ENV = { NETWORK_POSTS_COOKIES: 'li_at=AQEsecret; JSESSIONID="ajax:123"', SHORTVIDEO_COOKIES: 'msToken=tok; ttwid=1%7Cx' };

test('credentials from the environment: exact host, https only, csrf from JSESSIONID; none by default', () => {
  const creds = credentialsFromEnv(ENV);
  assert.deepEqual(credentialFor(creds, 'https://www.linkedin.com/voyager/api/feed/updatesV2?q=x'), { cookie: 'li_at=AQEsecret; JSESSIONID="ajax:123"', 'csrf-token': 'ajax:123' });
  assert.deepEqual(credentialFor(creds, 'https://www.tiktok.com/api/comment/list/'), { cookie: 'msToken=tok; ttwid=1%7Cx' });
  for (const u of ['http://www.linkedin.com/', 'https://evil.linkedin.com.example/', 'https://de.linkedin.com/company/x', 'https://vm.tiktok.com/x', 'not a url']) assert.equal(credentialFor(creds, u), undefined, u);
  assert.deepEqual(credentialsFromEnv({}), []);
  assert.deepEqual(executorSettingsFromEnv({}).hostCredentials, []);
  assert.equal(executorSettingsFromEnv(ENV).hostCredentials.length, 2);
  assert.throws(() => credentialsFromEnv({ SHORTVIDEO_COOKIES: 'a=b\r\nx: y' }), /SHORTVIDEO_COOKIES: a Cookie header value must be one line/);
});

test('the executor adds them per hop: the site gets its session, a redirect to another host gets none', async () => {
  const seen: TransportRequest[] = [];
  const transport: Transport = {
    async send(req): Promise<TransportResponse> {
      seen.push(req);
      const redirect = req.url.startsWith('https://www.linkedin.com/');
      return { status: redirect ? 302 : 200, url: req.url, headers: redirect ? { location: 'https://other.example/landing' } : { 'content-type': 'text/html' }, setCookie: [], body: redirect ? '' : '<html></html>', bytes: 0, replayed: false };
    },
    async close() {},
  };
  const ex = new Executor({ ...executorSettingsFromEnv(ENV), allowPrivateTargets: true }, { transport });
  try {
    const res = await ex.run({ kind: 'page', url: 'https://www.linkedin.com/company/x/', expect: 'html', headers: { cookie: 'lang=v=2&lang=en-us' } }, ex.sessionFor('q'));
    assert.equal(res.url, 'https://other.example/landing');
    assert.equal(seen[0].headers.cookie, 'lang=v=2&lang=en-us; li_at=AQEsecret; JSESSIONID="ajax:123"');
    assert.equal(seen[0].headers['csrf-token'], 'ajax:123');
    assert.equal(seen[1].headers.cookie, 'lang=v=2&lang=en-us', "the step's own header stays, the session does not follow");
    assert.equal(seen[1].headers['csrf-token'], undefined);
  } finally {
    await ex.close();
  }
});
