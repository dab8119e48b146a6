/**
 * The drift guard: every parser, on every JSON sample its registry row names (real captures when
 * FIXTURES_DIR has them, constructed ones always), is run on the sample changed the way sites change
 * (`src/sources/_kit/drift.ts`: a key renamed, items moved or a slot shifted, a block wrapped one
 * level deeper, a value emptied, an ad inserted; at most 12 of each per sample (DRIFT_PER_KIND), at the nodes the
 * records come from, the same on every run). Each change must be parsed right, lose values or be
 * refused with an error, never give a record with a value the original answer does not have, nor an
 * empty success. An HTML sample is changed in the JSON its scripts carry (`recordsBlock`: the
 * embedded document holding most of the records' values), served back in its place; a page read
 * from its markup (no such document) registers no case: its own tests cover it.
 *
 * A ratchet: the silently wrong results the parsers still give are listed, per sample, in
 * `test/drift-known.json` (what is left to fix, see docs/sources.md "Drift guard"). A result not
 * listed fails the test (a parser got worse, or a new one is not guarded); a listed one that no
 * longer happens fails it too, so the list only shrinks. `DRIFT_WRITE=1` rewrites the list.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SOURCES } from '../src/sources/registry.ts';
import { bodyOf, samplePath } from '../src/sources/_kit/samples.ts';
import { driftProblems, mutations, recordsBlock } from '../src/sources/_kit/drift.ts';

const KNOWN_FILE = new URL('./drift-known.json', import.meta.url);
const known: Record<string, string[]> = existsSync(KNOWN_FILE) ? JSON.parse(readFileSync(KNOWN_FILE, 'utf8')) : {};
const written: Record<string, string[]> = { ...known };
/** Changes of each kind per sample; DRIFT_PER_KIND overrides it to look further than CI does (the known list is kept at the default). */
const PER_KIND = Number(process.env.DRIFT_PER_KIND) || 12;

/** The JSON of a body and how to serve it again: bare, or after an anti-XSSI line. */
function jsonOf(body: string): { doc: unknown; serve: (d: unknown) => string } | null {
  const m = /^\)\]\}'\s*\n?/.exec(body);
  const text = m ? body.slice(m[0].length) : body;
  if (!/^\s*[[{]/.test(text)) return null;
  try {
    const doc = JSON.parse(text);
    return { doc, serve: (d) => (m ? m[0] : '') + JSON.stringify(d) };
  } catch {
    return null;
  }
}

/** An HTML page's embedded document the records come from, when the page has one. */
async function pageJsonOf(row: (typeof SOURCES)[number], s: NonNullable<(typeof SOURCES)[number]['samples']>[number], body: string) {
  if (!/^\s*</.test(body)) return null;
  const parse = await row.capture!.parse();
  return recordsBlock(body, await parse(body, s.query));
}

for (const row of SOURCES) {
  if (!row.capture || !row.samples) continue;
  for (const s of row.samples) {
    const path = samplePath(row, s);
    const name = `${row.endpoint} ${s.file}`;
    const skip = !existsSync(path) ? `sample ${s.file} not found (set FIXTURES_DIR for real captures)` : false;
    const page = skip ? null : bodyOf(readFileSync(path, 'utf8'), s);
    const json = page === null ? null : (jsonOf(page) ?? (await pageJsonOf(row, s, page)));
    // A page read from its markup is checked by its own tests: no drift case of its here (not a skip to count).
    if (!skip && !json) continue;
    test(`drift guard: ${name}`, { skip }, async (t) => {
      const body = page!;
      const doc = json!;
      const parse = await row.capture!.parse();
      const before = await parse(body, s.query);
      if (before.length === 0) return t.skip('the sample gives no record to compare');
      // Served back unchanged, the document gives the same records (the case measures the changes only).
      assert.deepEqual(await parse(doc.serve(doc.doc), s.query), before, 'the sample served back unchanged reads differently');
      const found = new Set<string>();
      const muts = mutations(doc.doc, before, name, PER_KIND);
      assert.ok(muts.length >= 5, `only ${muts.length} mutations apply to ${s.file}`);
      for (const m of muts) {
        let out: unknown[];
        try {
          out = await parse(doc.serve(m.doc), s.query);
        } catch {
          continue; // refused with the parser's reason: reported, not wrong
        }
        // Keyed by where and which field, not the values, so the list is stable.
        for (const p of driftProblems(before, out)) found.add(`${m.kind} at ${m.where}: ${p.replace(/:.*$/, '')}`);
      }
      const listed = new Set(known[name] ?? []);
      written[name] = [...found].sort();
      if (process.env.DRIFT_WRITE) return;
      const fresh = [...found].filter((f) => !listed.has(f));
      const gone = [...listed].filter((f) => !found.has(f));
      assert.deepEqual(fresh.slice(0, 15), [], `${fresh.length} silently wrong results not in test/drift-known.json`);
      assert.deepEqual(gone.slice(0, 15), [], `${gone.length} results of test/drift-known.json no longer happen: remove them (DRIFT_WRITE=1)`);
    });
  }
}

after(() => {
  if (!process.env.DRIFT_WRITE) return;
  for (const k of Object.keys(written)) if (!written[k]!.length) delete written[k];
  writeFileSync(KNOWN_FILE, `${JSON.stringify(written, null, 1)}\n`);
});
