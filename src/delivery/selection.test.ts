import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedCategory, emailsOf, firstOfEachEmail, SELECTION, selectionTest } from './selection.ts';
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
