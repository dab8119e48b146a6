import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detect, RULES, type Observed } from './detect.ts';
import { decodeText, decodeWindows1252 } from './decode.ts';

const o = (x: Partial<Observed>): Observed => ({ status: 200, url: 'https://www.google.com/maps', headers: {}, body: '', ...x });
const html = { 'content-type': 'text/html; charset=UTF-8' };

test('detection table: each kind of wall', () => {
  const cases: Array<[Partial<Observed>, string | undefined, string?]> = [
    [{ url: 'https://www.google.com/sorry/index?continue=x' }, 'captcha', 'google-sorry-url'],
    [{ url: 'https://www.google.co.uk/sorry/index' }, 'captcha'],
    [{ status: 302, location: 'https://www.google.de/sorry/index?q=1' }, 'captcha'],
    [{ status: 429, headers: html, body: '<p>Our systems have detected unusual traffic from your computer network.</p>' }, 'captcha', 'unusual-traffic'],
    [{ status: 403, headers: html, body: '<title>Just a moment...</title><script src="https://challenges.cloudflare.com/x"></script>' }, 'captcha', 'cloudflare-challenge'],
    [{ status: 403, url: 'https://www.zillow.com/homes/x_rb/', headers: html, body: '<div id="px-captcha"></div><script>window._pxAppId = "PXHYx10rg3";</script>' }, 'captcha', 'perimeterx'],
    [{ status: 202, url: 'https://www.booking.com/hotel/gb/x.html', headers: html, body: '<script src="https://d8c14d4960ca.edge.sdk.awswaf.com/d8c14d4960ca/challenge.js"></script>' }, 'captcha', 'aws-waf-challenge'],
    [{ status: 403, headers: { 'content-type': 'application/json' }, body: '{"px-captcha":1}' }, 'blocked', 'http-403'],
    [{ status: 302, location: 'https://consent.google.com/ml?continue=https://www.google.com/maps' }, 'consent', 'google-consent-redirect'],
    [{ url: 'https://consent.youtube.com/m?continue=x' }, 'consent'],
    [{ headers: html, body: '<html><title>Before you continue to Google Maps</title>' }, 'consent', 'google-before-you-continue'],
    [{ url: 'https://shop.example/', headers: html, body: 'Before you continue to Google, read our blog' }, undefined],
    [{ status: 429 }, 'rate_limited', 'http-429'],
    [{ status: 503, headers: { 'retry-after': '30' } }, 'rate_limited', '503-retry-after'],
    [{ status: 503, headers: html, body: 'Too many requests, slow down' }, 'rate_limited', '503-throttle-page'],
    [{ status: 503 }, 'network', 'http-5xx'],
    [{ status: 403, headers: html, body: '<title>Attention Required! | Cloudflare</title>' }, 'blocked', 'cloudflare-block'],
    [{ status: 403 }, 'blocked', 'http-403'],
    [{ status: 404 }, 'not_found'],
    [{ status: 302, url: 'https://shop.example/p/1', location: 'https://shop.example/captcha?return=%2Fp%2F1' }, 'captcha', 'captcha-redirect'],
    [{ status: 302, url: 'https://shop.example/p/1', location: 'https://shop.example/captchas-are-fun' }, undefined],
    [{ headers: html, body: '  \n' }, 'rate_limited', 'empty-page'],
    [{ headers: { 'content-type': 'application/json' }, body: '' }, undefined],
    [{ status: 410 }, 'not_found'],
    [{ status: 200, headers: { 'content-type': 'application/json' }, body: '{"note":"unusual traffic from your computer network"}' }, undefined],
    [{ status: 200, headers: html, body: '<div class="g-recaptcha"></div>' }, undefined],
    [{ status: 302, location: 'https://www.google.com/maps/place/x' }, undefined],
    [{ status: 200, headers: html, body: 'x'.repeat(700_000) + 'unusual traffic from your computer network' }, undefined],
  ];
  for (const [input, type, rule] of cases) {
    const d = detect(o(input));
    assert.equal(d?.type, type, JSON.stringify(input).slice(0, 120));
    if (rule) assert.equal(d?.rule, rule);
  }
});

test('every rule has a unique name and at least one condition', () => {
  const names = new Set(RULES.map((r) => r.name));
  assert.equal(names.size, RULES.length);
  for (const r of RULES) assert.ok(r.status || r.url || r.location || r.body || r.header, r.name);
});

test('charset decoding: BOMs, header, meta, windows-1252 C1 range, unknown labels', () => {
  assert.equal(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), 'text/plain'), 'a');
  assert.equal(decodeText(Buffer.from([0xff, 0xfe, 0x61, 0x00]), undefined), 'a');
  assert.equal(decodeText(Buffer.from('caf\xe9', 'latin1'), 'text/html; charset="iso-8859-1"'), 'café');
  assert.equal(decodeWindows1252(Buffer.from([0x80, 0x85, 0x99, 0x41])), '€…™A');
  assert.equal(decodeText(Buffer.from([0x82, 0xa0]), 'text/plain; charset=shift_jis'), 'あ');
  assert.equal(decodeText(Buffer.from('ü'), 'text/plain; charset=x-unknown-thing'), 'ü');
  assert.equal(decodeText(Buffer.from('{"a":"ü"}'), 'application/json'), '{"a":"ü"}');
});

test('a soft rule says so: pacing backs off without benching the proxy', () => {
  assert.deepEqual(detect(o({ headers: html, body: '' })), { type: 'rate_limited', rule: 'empty-page', soft: true });
  assert.equal(detect(o({ status: 429 }))?.soft, undefined);
});
