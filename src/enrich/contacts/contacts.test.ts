/**
 * contacts_n_leads on constructed websites served on loopback, fetched through the real executor
 * (ALLOW_PRIVATE_TARGETS lets it reach 127.0.0.1; with the switch off, private targets are refused).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { Executor } from '../../fetch/executor.ts';
import type { ExecutorSettings } from '../../fetch/settings.ts';
import { loopback } from '../../fetch/loopback.testkit.ts';
import { crawlSite } from './crawl.ts';
import { contactFields } from './fields.ts';
import { decodeCfEmail, emailsInText } from './emails.ts';
import { extractPage } from './extract.ts';
import { parseRobots, robotsAllows } from './robots.ts';
import { socialNetwork } from './social.ts';
import { enrichRecords } from '../index.ts';

const cf = (email: string, key = 0x42) => key.toString(16).padStart(2, '0') + [...email].map((c) => (c.charCodeAt(0) ^ key).toString(16).padStart(2, '0')).join('');

const pages: Record<string, string> = {
  '/': `<html><body><h1>Kafe Example</h1>
    <p>Write to <a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="${cf('hello@kafe.test')}">[email&#160;protected]</a></p>
    <p>Orders: orders [at] kafe [dot] test · Call <a href="tel:+30 210 123 4567">us</a></p>
    <a href="https://www.facebook.com/kafeexample">fb</a> <a href="https://www.facebook.com/sharer/sharer.php?u=x">share</a>
    <a href="https://x.com/kafe_ex">x</a> <a href="https://www.instagram.com/kafe.ex/">ig</a>
    <a href="/kontakt">Kontakt</a> <a href="/team">Team</a> <a href="/private/contact">secret contact</a>
    <a href="https://other.test/contact">elsewhere</a> <a href="http://10.1.2.3/contact">intranet</a>
  </body></html>`,
  '/kontakt': `<html><body><p>Sales: <a href="mailto:Sales@Kafe.test?subject=hi">mail</a>, phone 210 765 4321,
    <a href="/cdn-cgi/l/email-protection#${cf('owner@kafe.test', 0x1f)}">owner</a>, temp: someone@mailinator.com</p></body></html>`,
  '/team': `<html><body><div class="team">
    <div class="team-member"><h3>Maria Papadopoulou</h3><p class="role">Founder &amp; CEO</p><a href="mailto:maria@kafe.test">e-mail</a></div>
    <div class="team-member"><h3>Nikos Georgiou</h3><span class="job-title">Head Barista</span></div>
  </div></body></html>`,
  '/private/contact': '<a href="mailto:hidden@kafe.test">x</a>',
  '/robots.txt': 'User-agent: *\nDisallow: /private\n',
};

const base: Partial<ExecutorSettings> = { allowPrivateTargets: true, retries: 0, retryBaseMs: 10, retryMaxMs: 40, timeoutMs: 2000, totalTimeoutMs: 4000 };

async function site(t: { after(fn: () => unknown): void }, handler: http.RequestListener, settings: Partial<ExecutorSettings> = {}) {
  const srv = await loopback(handler);
  const ex = new Executor({ ...base, ...settings });
  t.after(async () => { await ex.close(); await srv.close(); });
  return { srv, ex, fetch: (s: Parameters<Executor['run']>[0]) => ex.run(s) };
}

const serve: http.RequestListener = (req, res) => {
  const body = pages[(req.url ?? '/').split('?')[0]];
  if (body === undefined) { res.writeHead(404); res.end('no'); return; }
  res.writeHead(200, { 'content-type': req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8' });
  res.end(body);
};

test('pure extraction: obfuscations, Cloudflare, socials, robots', () => {
  assert.equal(decodeCfEmail(cf('a.b@c.de')), 'a.b@c.de');
  assert.equal(decodeCfEmail('zz'), null);
  assert.deepEqual(emailsInText('mail: jane.doe [at] firm [dot] co [dot] uk or bob(at)firm(dot)com, or ANNA AT FIRM DOT ORG; logo@2x.png'),
    ['jane.doe@firm.co.uk', 'bob@firm.com', 'anna@firm.org']);
  assert.deepEqual(emailsInText('we meet at noon. Look at this dot com boom'), [], 'prose is not an address');
  assert.equal(socialNetwork('https://www.linkedin.com/company/kafe/'), 'linkedin');
  assert.equal(socialNetwork('https://twitter.com/intent/tweet?text=x'), null);
  assert.equal(socialNetwork('https://www.tiktok.com/@kafe'), 'tiktok');
  assert.equal(socialNetwork('https://www.facebook.com/'), null);
  const robots = parseRobots('User-agent: googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/ok\n');
  assert.equal(robotsAllows(robots, '/private/x'), false);
  assert.equal(robotsAllows(robots, '/private/ok/y'), true);
  assert.equal(robotsAllows(robots, '/contact'), true);
  const f = extractPage(pages['/'], 'http://kafe.test/', 'GR');
  assert.deepEqual(f.links, ['http://kafe.test/kontakt', 'http://kafe.test/private/contact', 'http://kafe.test/team'], 'same site only, contact pages first');
  assert.deepEqual(f.phones, ['+302101234567']);
  // Team cards: the name by itemprop or class as well as by heading; a MAILTO: link in any case.
  const cards = extractPage(`<div class="staff-card"><span itemprop="name">Eva Lind</span><span class="position">Chef</span><a href="MAILTO:eva@x.test">m</a></div>
    <div class="person"><b class="name">Ola Nord</b><i class="job">Manager</i></div><div class="card"><p>No name here</p><p class="role">Cook</p></div>`, 'http://x.test/', null);
  assert.deepEqual(cards.contacts, [{ name: 'Eva Lind', title: 'Chef', email: 'eva@x.test' }, { name: 'Ola Nord', title: 'Manager', email: null }]);
});

test('e-mails in a long page: found wherever they sit (start, end, far apart, close together), in order', () => {
  const filler = (n: number) => 'Fresh coffee and pastries every day, 7 to 19. '.repeat(n);
  const long = `${'a'.repeat(63)}b`; // the longest local part
  const text = `first@start.test ${filler(200)} ${long}@far.example.com ${filler(3)} x@near.test, y@near.test ${filler(50)}`
    + ` jane  [at]  firm [dot] co [dot] uk ${filler(300)} follow @kafe on x ${filler(2)} BOB AT FIRM DOT ORG ${filler(40)} z (at) end (dot) test`;
  assert.deepEqual(emailsInText(text), ['first@start.test', `${long}@far.example.com`, 'x@near.test', 'y@near.test', 'jane@firm.co.uk', 'bob@firm.org', 'z@end.test']);
  assert.deepEqual(emailsInText(filler(500)), [], 'no anchor, no address');
});

test('a site: home, robots.txt, contact and team pages; e-mails only on the contact page; flags', async (t) => {
  const { srv, fetch } = await site(t, serve);
  const v = await crawlSite(srv.url, { fetch, maxPages: 3, region: 'GR' });
  assert.equal(v.status, 'reachable');
  assert.deepEqual(v.pages.map((p) => new URL(p.url).pathname), ['/', '/kontakt', '/team'], 'robots.txt keeps /private out');
  assert.equal(srv.hits.get('/private/contact'), undefined);
  const f = contactFields(v);
  const emails = Object.keys(f).filter((k) => /^email_\d+$/.test(k)).map((k) => f[k]);
  assert.deepEqual(emails, ['hello@kafe.test', 'orders@kafe.test', 'sales@kafe.test', 'owner@kafe.test', 'someone@mailinator.com', 'maria@kafe.test']);
  assert.equal(f.email_3_role, true, 'sales@ is a role account');
  assert.equal(f.email_2_role, true);
  assert.equal(f.email_6_role, false);
  assert.equal(f.email_5_disposable, true, 'flagged, not dropped');
  assert.equal(f.email_1_disposable, false);
  assert.deepEqual([f.phone_1, f.phone_2], ['+302101234567', '+302107654321']);
  assert.equal(f.facebook, 'https://www.facebook.com/kafeexample');
  assert.equal(f.twitter, 'https://x.com/kafe_ex');
  assert.equal(f.instagram, 'https://www.instagram.com/kafe.ex/');
  assert.equal(f.linkedin, null);
  assert.deepEqual(f.contacts, [
    { name: 'Maria Papadopoulou', title: 'Founder & CEO', email: 'maria@kafe.test' },
    { name: 'Nikos Georgiou', title: 'Head Barista', email: null },
  ]);
  // The page limit is honoured.
  const one = await crawlSite(srv.url, { fetch, maxPages: 1, region: 'GR' });
  assert.deepEqual(one.pages.map((p) => new URL(p.url).pathname), ['/', '/kontakt']);
});

test('robots.txt is fetched beside the home page, and the likely pages at once (not one after another)', async (t) => {
  // The server holds each answer until the requests that should be in flight with it have arrived
  // (or a second has passed): a crawler fetching one page after another is seen as such.
  const waiting = new Map<string, () => void>();
  const inFlight = new Set<string>();
  const overlapped = new Set<string>();
  const hold = (path: string, partner: string, answer: () => void) => {
    if (inFlight.has(partner)) { overlapped.add(path); answer(); waiting.get(partner)?.(); return; }
    waiting.set(path, () => { waiting.delete(path); answer(); });
    setTimeout(() => waiting.get(path)?.(), 1000);
  };
  const partners: Record<string, string> = { '/': '/robots.txt', '/robots.txt': '/', '/kontakt': '/team', '/team': '/kontakt' };
  const { srv, fetch } = await site(t, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    inFlight.add(path);
    res.on('close', () => inFlight.delete(path));
    if (partners[path]) hold(path, partners[path], () => serve(req, res));
    else serve(req, res);
  });
  const v = await crawlSite(srv.url, { fetch, maxPages: 3, region: 'GR' });
  assert.deepEqual(v.pages.map((p) => new URL(p.url).pathname), ['/', '/kontakt', '/team'], 'page order kept');
  assert.ok(overlapped.has('/') || overlapped.has('/robots.txt'), 'robots.txt was asked while the home page was in flight');
  assert.ok(overlapped.has('/kontakt') || overlapped.has('/team'), 'the likely pages were in flight together');
});

test('a redirect to another site, a site that times out, a 10 MB page', async (t) => {
  const target = await site(t, serve);
  const { srv, fetch } = await site(t, (req, res) => {
    if (req.url === '/') { res.writeHead(301, { location: `http://localhost:${target.srv.port}/` }); res.end(); return; }
    if (req.url === '/slow') return; // never answers
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<p>${'x'.repeat(1020)}</p>`;
      let sent = 0;
      const push = () => { while (sent < 10 * 1024 * 1024) { sent += chunk.length; if (!res.write(chunk)) { res.once('drain', push); return; } } res.end(); };
      push();
      return;
    }
    res.writeHead(404); res.end();
  }, { timeoutMs: 300, totalTimeoutMs: 600 });
  // Through an executor with the ordinary time limit: on a loaded machine 300 ms is the slow site's alone.
  const moved = await crawlSite(srv.url, { fetch: target.fetch, maxPages: 3, region: 'GR' });
  assert.equal(moved.status, 'redirected');
  assert.equal(moved.finalUrl, `http://localhost:${target.srv.port}/`);
  assert.equal(contactFields(moved).email_1, 'hello@kafe.test', 'the site it moved to is read');
  const t0 = Date.now();
  const slow = await crawlSite(`${srv.url}/slow`, { fetch, maxPages: 3, region: 'GR' });
  assert.equal(slow.status, 'error');
  assert.match(slow.error!, /network: .*timed out/);
  assert.ok(Date.now() - t0 < 3000);
  const huge = await crawlSite(`${srv.url}/huge`, { fetch: target.fetch, maxPages: 3, region: 'GR' });
  assert.equal(huge.status, 'error');
  assert.match(huge.error!, /too large/);
  assert.equal(contactFields(huge).email_1, undefined);
});

test('private addresses are refused with the switch off (loopback test host allowed by name)', async (t) => {
  const { srv, fetch } = await site(t, (req, res) => {
    if (req.url === '/') { res.writeHead(302, { location: 'http://192.168.77.1/' }); res.end(); return; }
    res.end('<a href="mailto:x@y.test">x</a>');
  }, { allowPrivateTargets: false, allowedTargets: ['127.0.0.1'] });
  const direct = await crawlSite('http://10.255.255.1/', { fetch, maxPages: 3, region: null });
  assert.equal(direct.status, 'error');
  assert.match(direct.error!, /^forbidden_target/);
  const hop = await crawlSite(srv.url, { fetch, maxPages: 3, region: null });
  assert.equal(hop.status, 'error');
  assert.match(hop.error!, /^forbidden_target: .*192\.168\.77\.1/);
  assert.equal((await crawlSite(`${srv.url}/ok`, { fetch, maxPages: 3, region: null })).status, 'reachable');
});

test('enrichRecords: contacts first, then the e-mail enrichments read what it found; no site, no fetch', async (t) => {
  const { srv, fetch } = await site(t, serve);
  const places = [{ name: 'Kafe', site: srv.url, country_code: 'GR' }, { name: 'No site', site: null, country_code: 'GR' }];
  await enrichRecords('/maps/search', places, { enrichment: ['disposable_email_checker', 'contacts_n_leads'] }, {}, fetch);
  const [a, b] = places as Record<string, unknown>[];
  assert.equal(a.site_status, 'reachable');
  assert.equal(a.email_1, 'hello@kafe.test');
  assert.equal(a.email_5_disposable, true);
  assert.equal(b.site_status, null);
  assert.deepEqual(b.contacts, []);
  assert.equal(b.email_1, undefined);
});

test('enrichRecords: branches giving the same website share one visit of it', async (t) => {
  const { srv, fetch } = await site(t, serve);
  const places = [1, 2, 3].map((i) => ({ name: `Kafe ${i}`, site: `${srv.url}/`, country_code: 'GR' }));
  await enrichRecords('/maps/search', places, { enrichment: ['contacts_n_leads', 'company_insights_service'] }, {}, fetch);
  assert.equal(srv.hits.get('/'), 1, 'the home page fetched once for the three places and both enrichments');
  assert.equal(srv.hits.get('/kontakt'), 1);
  for (const p of places as Record<string, unknown>[]) assert.equal(p.email_1, 'hello@kafe.test');
});
