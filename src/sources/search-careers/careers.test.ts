import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FetchedResponse } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';
import { adapter as searchCareers } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { jobsOfHtml } from './parse.ts';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';

const constructed = readFileSync(fileURLToPath(new URL('./constructed-jobs.html', import.meta.url)), 'utf8');
const NOW = 1780394400; // Tue, 02 Jun 2026 10:00:00 GMT
const res = (body: string): FetchedResponse => ({ status: 200, url: 'https://www.google.com/search', headers: { date: 'Tue, 02 Jun 2026 10:00:00 GMT' }, body });
const ctx = (params = {}, query = 'python developer') => ({ query, params });
const REF = fixturePath('google-jobs', 'scrapfly_search_parsed_2026-06.json');

test('constructed 2026 cards → records field by field', () => {
  const [step] = searchCareers.plan(ctx({ region: 'US' }));
  assert.equal(step.url, 'https://www.google.com/search?q=python%20developer&ibp=htl%3Bjobs&hl=en&gl=us');
  assert.equal(step.browser, true);
  const { records, next } = searchCareers.parse(step, res(constructed), ctx());
  assert.equal(records.length, 2);
  const [a, b] = records;
  assert.equal(a.title, 'Senior Constructed Engineer');
  assert.equal(a.company, 'Example Corp');
  assert.equal(a.location, 'Testville, CA');
  assert.equal(a.via, 'ExampleBoard');
  assert.equal(a.posted_date, '2 days ago');
  assert.equal(a.posted_timestamp, NOW - 2 * 86400);
  assert.equal(a.salary_range, '150K–200K a year');
  assert.equal(a.schedule_type, 'Full-time');
  assert.deepEqual(a.qualifications, ['5+ years of Python', 'Likes tests']);
  assert.equal(a.description, 'We build constructed things.\nMore text here.');
  assert.deepEqual(a.apply_links, [
    { title: 'Apply on ExampleBoard', link: 'https://board.example.invalid/jobs/1?src=google' },
    { title: 'Apply directly', link: 'https://corp.example.invalid/careers/1' },
  ]);
  assert.equal(a.application_url, 'https://board.example.invalid/jobs/1?src=google');
  assert.equal(a.job_id, 'AbC123%3D%3D');
  assert.equal(a.query, 'python developer');
  assert.equal(b.location, 'Remote');
  assert.equal(b.via, null);
  assert.equal(b.schedule_type, 'Contractor');
  assert.equal(b.posted_timestamp, null);
  assert.deepEqual(b.apply_links, []);
  assert.deepEqual(next, []);
});

test('record field names cover the parsed reference (fixtures/google-jobs)', { skip: fixtureMissing(REF) }, () => {
  const ref = JSON.parse(readFileSync(REF, 'utf8')).jobs as Array<Record<string, unknown>>;
  const ours = Object.keys(jobsOfHtml(constructed, 'q', NOW)![0]);
  const renamed: Record<string, string> = { source_board: 'via', application_url: 'application_url' };
  for (const k of new Set(ref.flatMap((j) => Object.keys(j)))) assert.ok(ours.includes(renamed[k] ?? k), `reference field ${k} has no counterpart`);
});

test('older list layout: unlabeled chips told apart by wording', () => {
  const html = `<ul><li class="iFjolb"><div class="BjJfJf PUpOsf">Old Layout Dev</div><div class="vNEEBe">Old Co</div>
    <div class="Qk80Jf">Berlin</div><div class="Qk80Jf">via Jobsite</div>
    <div class="LL4CDc">5 days ago</div><div class="LL4CDc">Part-time</div><div class="LL4CDc">€20 an hour</div>
    <span class="HBvzbc">Old description</span><a class="pMhGee" href="https://j.example.invalid/1">Jobsite</a></li></ul>`;
  const [j] = jobsOfHtml(html, 'q', NOW)!;
  assert.deepEqual([j.title, j.company, j.location, j.via, j.posted_date, j.schedule_type, j.salary_range, j.description], ['Old Layout Dev', 'Old Co', 'Berlin', 'Jobsite', '5 days ago', 'Part-time', '€20 an hour', 'Old description']);
  assert.equal(j.posted_timestamp, NOW - 5 * 86400);
  assert.deepEqual(j.apply_links, [{ title: 'Jobsite', link: 'https://j.example.invalid/1' }]);
});

test('schema.org JobPosting JSON-LD is read when there are no cards', () => {
  const ld = { '@context': 'https://schema.org', '@type': 'JobPosting', title: 'LD Dev', hiringOrganization: { name: 'LD Co' }, jobLocation: { address: { addressLocality: 'Paris', addressCountry: 'FR' } }, datePosted: '2026-05-30', employmentType: ['FULL_TIME'], baseSalary: { currency: 'EUR', value: { minValue: 50000, maxValue: 60000, unitText: 'YEAR' } }, description: '<p>Hello<br>world</p>', url: 'https://ld.example.invalid/j', identifier: { value: 'ID9' } };
  const [j] = parseCapture(`<html><script type="application/ld+json">${JSON.stringify(ld)}</script></html>`);
  assert.deepEqual([j.title, j.company, j.location, j.schedule_type, j.salary_range, j.description, j.application_url, j.job_id], ['LD Dev', 'LD Co', 'Paris, FR', 'FULL_TIME', 'EUR 50000–60000 a year', 'Hello\nworld', 'https://ld.example.invalid/j', 'ID9']);
  assert.equal(j.posted_timestamp, 1780099200);
});

test('paging by start=10n up to pagesPerQuery; empty notice ends it', () => {
  const params = { pagesPerQuery: 2 };
  const [s0] = searchCareers.plan(ctx(params));
  const o0 = searchCareers.parse(s0, res(constructed), ctx(params));
  assert.match(o0.next![0].url, /&start=10$/);
  assert.deepEqual(searchCareers.parse(o0.next![0], res(constructed), ctx(params)).next, []);
  const none = searchCareers.parse(s0, res('<html><body><div>No more jobs</div></body></html>'), ctx(params));
  assert.deepEqual([none.records, none.next], [[], []]);
});

test('foreign, truncated and reordered pages: records or layout_changed, never a crash', () => {
  const [step] = searchCareers.plan(ctx());
  for (const body of ['', '<html><body>enable JavaScript</body></html>', '[1,2]']) {
    assert.throws(() => searchCareers.parse(step, res(body), ctx()), (e) => isSourceError(e) && e.type === 'layout_changed');
  }
  for (let cut = 0; cut < constructed.length; cut += 29) {
    try {
      for (const r of searchCareers.parse(step, res(constructed.slice(0, cut)), ctx()).records) assert.equal(typeof r.title, 'string');
    } catch (e) {
      assert.ok(isSourceError(e) && e.type === 'layout_changed', String(e));
    }
  }
  const lines = constructed.split('\n');
  const a = lines.findIndex((l) => l.startsWith('<div class="EimVGf"'));
  const b = lines.indexOf('</div>', a);
  const reordered = [...lines.slice(0, a + 1), ...lines.slice(a + 1, b).reverse(), ...lines.slice(b)].join('\n');
  const r = searchCareers.parse(step, res(reordered), ctx()).records;
  assert.equal(r[0].title, 'Senior Constructed Engineer');
  assert.equal(r[0].salary_range, '150K–200K a year');
  assert.throws(() => parseCapture('{"x":1}'), /expected an HTML results page/);
  assert.throws(() => searchCareers.plan(ctx({}, ' ')), (e) => isSourceError(e) && e.type === 'invalid_query');
});
