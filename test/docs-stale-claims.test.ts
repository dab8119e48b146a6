/**
 * No stale "missing" claim in the docs (issue 27): README.md and docs/*.md may not say that an
 * endpoint the registry serves answers 501, is not served, not implemented or missing. A sentence
 * that names a served path and such a claim fails CI, unless it tells history ("first answered 501",
 * "no longer"). Served: every data endpoint with a source row (and its path aliases), and every
 * account operation (POST /businesses, GET /businesses/{id}, ...).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { defaultRegistry } from '../src/sources/registry.ts';
import { endpointFor } from '../src/contract/endpoints/index.ts';
import { accountOperations } from '../src/contract/account.ts';

const norm = (p: string) => p.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '');

export function servedPaths(): Set<string> {
  const served = new Set<string>();
  for (const path of defaultRegistry().endpoints()) {
    served.add(path);
    for (const a of endpointFor(path)?.aliases ?? []) served.add(a);
  }
  for (const o of accountOperations) served.add(norm(o.path));
  return served;
}

const CLAIM = /\b501\b|\bnot (?:yet )?(?:served|implemented|supported|available)\b|\bunserved\b|\bno source adapter\b|\b(?:is|are) missing\b|\b(?:does|do|can) ?not (?:serve|answer)\b|\bdoesn't (?:serve|answer)\b/i;
const HISTORY = /\bfirst answered\b|\bused to\b|\bno longer\b|\bformerly\b|\bbefore (?:issue|this)\b/i;
const PATH = /(?<![\w.])\/[a-z][a-z0-9-]*(?:\/(?:[a-z0-9-]+|\{\w+\}))*/g;

/** The sentences (or table rows) of a text that claim a served path is missing. */
export function staleClaims(text: string, served: Set<string>): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n\s*\n|\n(?=\s*[|#-] )/)) {
    // A table row is one clause: its path and its claim may sit in different cells.
    for (const clause of para.replace(/\s+/g, ' ').split(/(?<=[.;!?])\s+(?!\|)/)) {
      if (!CLAIM.test(clause) || HISTORY.test(clause)) continue;
      const named = [...clause.matchAll(PATH)].map((m) => norm(m[0])).filter((p) => served.has(p));
      if (named.length) out.push(`${named.join(', ')}: ${clause.trim().slice(0, 200)}`);
    }
  }
  return out;
}

test('the checker flags a stale claim and lets a historical one pass', () => {
  const served = new Set(['/businesses', '/geocoding', '/businesses/{}']);
  assert.equal(staleClaims('`POST /businesses` answers 501 until the database is built.', served).length, 1);
  assert.equal(staleClaims('| `GET /businesses/{id}` | not implemented |', served).length, 1);
  assert.equal(staleClaims('trawl does not serve `/geocoding` (forward) yet.', served).length, 1);
  assert.equal(staleClaims('(`POST /businesses` first answered 501 this way; it now searches the database.)', served).length, 0);
  assert.equal(staleClaims('An endpoint without a source row answers 501. `/geocoding` is served.', served).length, 0);
  assert.equal(staleClaims('`/yelp/reviews` is not served (brand path).', served).length, 0, 'an unserved path may be called unserved');
});

test('README.md and docs/*.md claim no served endpoint is missing', () => {
  const served = servedPaths();
  assert.ok(served.has('/geocoding') && served.has('/businesses') && served.has('/businesses/{}') && served.has('/maps/search-v3'), [...served].join(' '));
  const files = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const stale = files.flatMap((f) => staleClaims(readFileSync(f, 'utf8'), served).map((c) => `${f}: ${c}`));
  assert.deepEqual(stale, []);
});
