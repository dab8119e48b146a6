import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FetchedResponse } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';
import { adapter as searchEvents } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { unwrapLink, verticalUrl } from '../_search/serp.ts';

const constructed = readFileSync(fileURLToPath(new URL('./constructed-events.html', import.meta.url)), 'utf8');
const res = (body: string): FetchedResponse => ({ status: 200, url: 'https://www.google.com/search', headers: { date: 'Tue, 02 Jun 2026 10:00:00 GMT' }, body });
const ctx = (params = {}, query = 'concerts in testville') => ({ query, params });

test('constructed events page: cards → records field by field', () => {
  const [step] = searchEvents.plan(ctx());
  assert.equal(step.browser, true);
  const out = searchEvents.parse(step, res(constructed), ctx());
  assert.equal(out.records.length, 2);
  const [a, b] = out.records;
  assert.equal(a.title, 'Constructed Band & Friends');
  assert.equal(a.date_start, 'Jun 19');
  assert.equal(a.date_when, 'Fri, Jun 19, 7:30 – 11 PM');
  assert.deepEqual(a.address, ['Test Hall, 1 Example Street', 'Testville']);
  assert.equal(a.venue_name, 'Test Hall');
  assert.equal(a.venue_cid, '1234567890123456789');
  assert.equal(a.description, 'An evening of constructed music.');
  assert.equal(a.link, 'https://tickets.example.invalid/e/1');
  assert.deepEqual(a.ticket_links, [
    { source: 'Example Tickets', link: 'https://tickets.example.invalid/e/1' },
    { source: 'venue.example.invalid', link: 'https://venue.example.invalid/events/1' },
  ]);
  assert.equal(a.thumbnail, 'https://example.invalid/thumb1.jpg');
  assert.equal(a.start_timestamp, null);
  assert.equal(a.query, 'concerts in testville');
  assert.equal(b.title, 'Second Constructed Show');
  assert.equal(b.date_start, 'Jul 3');
  assert.deepEqual(b.address, ['Open Air Lot', '2 Sample Road']);
  assert.deepEqual(b.ticket_links, []);
  assert.deepEqual(out.next, []);
});

test('pagesPerQuery pages by start=10n and stops at an empty page', () => {
  const params = { pagesPerQuery: 3, language: 'de', region: 'DE', uule: 'w+CAIQICI' };
  const [s0] = searchEvents.plan(ctx(params));
  assert.equal(s0.url, 'https://www.google.com/search?q=concerts%20in%20testville&ibp=htl%3Bevents&hl=de&gl=de&uule=w%2BCAIQICI');
  const o0 = searchEvents.parse(s0, res(constructed), ctx(params));
  assert.equal(o0.next!.length, 1);
  assert.match(o0.next![0].url, /&start=10$/);
  const o1 = searchEvents.parse(o0.next![0], res(constructed), ctx(params));
  assert.match(o1.next![0].url, /&start=20$/);
  const o2 = searchEvents.parse(o1.next![0], res(constructed), ctx(params));
  assert.deepEqual(o2.next, []);
  const empty = searchEvents.parse(o0.next![0], res("<html><body><div>Can't find events that match</div></body></html>"), ctx(params));
  assert.deepEqual(empty.records, []);
  assert.deepEqual(empty.next, []);
});

test('schema.org Event JSON-LD is read when there are no cards', () => {
  const ld = { '@context': 'https://schema.org', '@graph': [{ '@type': 'MusicEvent', name: 'LD Concert', startDate: '2026-06-19T19:30:00+01:00', endDate: '2026-06-19T23:00:00+01:00', location: { '@type': 'Place', name: 'LD Hall', address: { streetAddress: '5 Road', addressLocality: 'Town' } }, offers: { url: 'https://t.example.invalid/1' }, image: ['https://example.invalid/i.jpg'], description: 'desc' }, { '@type': 'Organization', name: 'x' }] };
  const html = `<html><script type="application/ld+json">${JSON.stringify(ld)}</script><script type="application/ld+json">{broken</script></html>`;
  const [e] = parseCapture(html, 'q');
  assert.equal(e.title, 'LD Concert');
  assert.equal(e.start_timestamp, 1781893800);
  assert.equal(e.end_timestamp, 1781906400);
  assert.deepEqual(e.address, ['LD Hall', '5 Road, Town']);
  assert.equal(e.link, 'https://t.example.invalid/1');
  assert.equal(e.thumbnail, 'https://example.invalid/i.jpg');
});

test('foreign pages are layout_changed; parseCapture names what it expected', () => {
  const [step] = searchEvents.plan(ctx());
  for (const body of ['', '<html><body>Please enable JavaScript</body></html>', '{"a":1}']) {
    assert.throws(() => searchEvents.parse(step, res(body), ctx()), (e) => isSourceError(e) && e.type === 'layout_changed');
  }
  assert.throws(() => parseCapture('{"a":1}'), /expected an HTML results page/);
  assert.throws(() => parseCapture('<html><body>x</body></html>'), /no event cards/);
  assert.throws(() => searchEvents.plan(ctx({}, '  ')), (e) => isSourceError(e) && e.type === 'invalid_query');
  assert.equal(searchEvents.checkQuery!(' '), 'query is empty: give a search phrase such as "concerts in london"');
});

test('truncated and reordered pages never crash: records or a typed error', () => {
  const [step] = searchEvents.plan(ctx());
  let seen = 0;
  for (let cut = 0; cut < constructed.length; cut += 37) {
    try {
      const out = searchEvents.parse(step, res(constructed.slice(0, cut)), ctx());
      for (const r of out.records) assert.equal(typeof r.title, 'string');
      seen++;
    } catch (e) {
      assert.ok(isSourceError(e) && e.type === 'layout_changed', String(e));
    }
  }
  assert.ok(seen > 0);
  // Reordered: the fields inside every card reversed, and the cards in reverse order.
  const cards = constructed.split(/(?=<li )/);
  const head = cards.shift()!;
  const flipped = cards.reverse().map((c) => {
    const ls = c.split('\n');
    const inner = ls.filter((l) => !l.startsWith('<li') && !l.startsWith('</li>'));
    return [ls[0], ...inner.reverse(), ...ls.filter((l) => l.startsWith('</li>'))].join('\n');
  });
  const out = searchEvents.parse(step, res(head + flipped.join('')), ctx());
  assert.deepEqual(out.records.map((r) => r.title).sort(), ['Constructed Band & Friends', 'Second Constructed Show']);
});

test('serp helpers: redirect links, results URL', () => {
  assert.equal(unwrapLink('/url?q=https://a.example/x&sa=U'), 'https://a.example/x');
  assert.equal(unwrapLink('#'), null);
  assert.equal(unwrapLink('/search?q=x'), 'https://www.google.com/search?q=x');
  assert.equal(verticalUrl('a b', 'jobs', 2, {}), 'https://www.google.com/search?q=a%20b&ibp=htl%3Bjobs&hl=en&start=20');
});
