import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedCategory, emailsOf, firstOfEachEmail, SELECTION, selectionTest, selectionTests } from '../engine/selection.ts';
import { dataChunks } from './shape.ts';
import { writeExportOfTexts } from './export/export-job.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const places = [
  { name: 'A', type: 'Dentist', subtypes: 'Dentist, Cosmetic dentist' },
  { name: 'B', type: 'Dental clinic', subtypes: 'Dental clinic, Dentist' },
  { name: 'C', type: 'Orthodontist', subtypes: 'Orthodontist' },
  { name: 'D', type: 'Cosmetic dentist', subtypes: null },
  { name: 'E', type: null, subtypes: null },
];
const names = (keep: ((r: Record<string, unknown>) => boolean) | undefined, xs: Record<string, unknown>[] = places) =>
  xs.filter(keep ?? (() => true)).map((p) => p.name).join('');

test('exactMatch keeps places one of whose types is the category asked, compared as the business database compares types', () => {
  const params = { [SELECTION]: { exactMatch: { categories: ['dentist', 'cosmetic dentist'] } } };
  assert.equal(names(selectionTest(params, 'dentist Adams, New York, US')), 'AB');
  assert.equal(names(selectionTest(params, 'Cosmetic Dentist Adams, New York, US')), 'AD', 'the longest category the query starts with');
  assert.equal(names(selectionTest(params, 'DENTIST')), 'AB', 'case-insensitive');
  // A custom query (no category of the task in it): a place type that is the query's first words.
  assert.equal(names(selectionTest({ [SELECTION]: { exactMatch: { categories: [] } } }, 'orthodontist in brooklyn')), 'C');
  assert.equal(askedCategory(['dentist'], 'dentistry school'), undefined, 'whole words only');
  assert.equal(selectionTest({}, 'dentist'), undefined, 'no selection: every place kept');
});

test('ignoreWithoutEmails keeps places with an address in email_N or contacts', () => {
  const xs = [{ name: 'A', email_1: 'a@x.com' }, { name: 'B' }, { name: 'C', email_1: '  ' }, { name: 'D', contacts: [{ name: 'x', title: null, email: 'd@x.com' }] }];
  assert.equal(names(selectionTest({ [SELECTION]: { ignoreWithoutEmails: true } }, 'q'), xs), 'AD');
  assert.deepEqual(emailsOf({ email_1: 'A@X.com', email_2: 'b@x.com', email_1_status: 'RECEIVING', contacts: [{ email: 'a@x.com' }] }), ['a@x.com', 'b@x.com']);
});

test('filters, exactMatch and ignoreWithoutEmails combine (a place passes all)', () => {
  const xs = [{ name: 'A', type: 'Dentist', rating: 5, email_1: 'a@x.com' }, { name: 'B', type: 'Dentist', rating: 3, email_1: 'b@x.com' },
    { name: 'C', type: 'Dentist', rating: 5 }, { name: 'D', type: 'Cafe', rating: 5, email_1: 'd@x.com' }];
  const keep = selectionTest({ [SELECTION]: { filters: [{ key: 'rating', operator: 'greater than', value: 4 }], exactMatch: { categories: ['dentist'] }, ignoreWithoutEmails: true } }, 'dentist nyc');
  assert.equal(names(keep, xs), 'A');
});

test('the tests on the source\'s fields run before the enrichments, those on fields an enrichment writes after them', () => {
  const filters = [{ key: 'rating', operator: 'greater than', value: 4 }, { key: 'email_3_status', operator: 'equals', value: 'RECEIVING' },
    { key: 'site', operator: 'is not blank', value: null }];
  const sel = { filters, exactMatch: { categories: ['dentist'] }, ignoreWithoutEmails: true };
  const { before, after } = selectionTests({ [SELECTION]: sel, enrichment: ['contacts_n_leads'] }, 'dentist');
  // Before: rating, site and the type; the e-mail fields do not exist yet, so they must not decide here.
  const raw = [{ name: 'A', type: 'Dentist', rating: 5, site: 'a.com' }, { name: 'B', type: 'Dentist', rating: 3, site: 'b.com' },
    { name: 'C', type: 'Cafe', rating: 5, site: 'c.com' }, { name: 'D', type: 'Dentist', rating: 5, site: null }];
  assert.equal(names(before, raw), 'A');
  const enriched = [{ name: 'A', email_1: 'a@x.com', email_3: 'c@x.com', email_3_status: 'RECEIVING', rating: 1 }, { name: 'B', email_1: 'b@x.com', email_1_status: 'RECEIVING' }, { name: 'C' }];
  assert.equal(names(after, enriched), 'A', 'the e-mail filter and ignoreWithoutEmails; the rating is not tested again');
  // company_websites_finder fills `site`: a filter on it waits for the enrichment.
  const finder = selectionTests({ [SELECTION]: { filters: [filters[2]] }, enrichment: ['company_websites_finder'] }, 'q');
  assert.equal(finder.before, undefined);
  assert.equal(names(finder.after, raw), 'ABC');
  assert.deepEqual(selectionTests({}, 'q'), {});
});

const withEmails = [
  [{ name: 'A', email_1: 'info@a.com' }, { name: 'B' }, { name: 'C', email_1: 'INFO@a.com' }],
  [{ name: 'D', email_1: 'd@d.com', email_2: 'info@a.com' }, { name: 'E', email_1: 'e@e.com' }, { name: 'F', contacts: [{ email: 'e@e.com' }] }],
];

test('dropEmailDuplicates leaves out a place whose address a place before it had, across queries; places without one stay', async () => {
  assert.equal(names(firstOfEachEmail(), withEmails.flat()), 'ABE');
  let text = '';
  const results = (async function* () { for (const [i, xs] of withEmails.entries()) yield { queryIndex: i, query: `q${i}`, recordsJson: JSON.stringify(xs), error: null }; })();
  for await (const c of dataChunks(results as never, { dropEmailDuplicates: true })) text += c;
  assert.deepEqual(JSON.parse(text).map((q: { name: string }[]) => q.map((p) => p.name).join('')), ['AB', 'E'], 'the result view keeps one array per query');
});

test('dropEmailDuplicates applies to the task file too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-email-'));
  try {
    const path = join(dir, 'out.json');
    const r = await writeExportOfTexts({ format: 'json', path, dropEmailDuplicates: true }, async function* () { for (const xs of withEmails) yield JSON.stringify(xs); });
    assert.equal(r.rows, 3);
    assert.deepEqual((JSON.parse(readFileSync(path, 'utf8')) as { name: string }[]).map((p) => p.name), ['A', 'B', 'E']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
