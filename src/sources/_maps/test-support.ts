/**
 * Test support (imported by *.test.ts only): where the real captures live, and programmatic variants
 * of them (truncated, reordered, re-typed, empty). Variants are generated at test time and never
 * written to disk.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';

export const FIXTURES_DIR = fixturePath('google-maps');

/** `false` when the capture is present, else the skip message node:test prints. */
export function missing(name: string): string | false {
  return fixtureMissing(resolve(FIXTURES_DIR, name));
}

export function fixture(name: string): string {
  return readFileSync(resolve(FIXTURES_DIR, name), 'utf8');
}

export const EN = 'place_kipriakon_en_2023-09.json';
export const EL = 'place_kipriakon_el_2024-10.json';
export const SEARCH = 'search_tbm-map_coffee_2024-12.json';
export const HTML = 'place_page_tipsy-sticks_2023-04.html';

/** Deterministic PRNG (mulberry32) so a failing variant can be reproduced from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts of a body at several fractions (never the whole body). */
export function truncations(body: string): string[] {
  const text = body.trimEnd(); // a cut trailing newline would still be valid JSON
  const out: string[] = [];
  for (const f of [0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999]) out.push(text.slice(0, Math.max(1, Math.floor(text.length * f))));
  out.push(text.slice(0, text.length - 1));
  return out;
}

/** Bodies with nothing in them. */
export const EMPTY_BODIES = ['', '   \n', ")]}'\n", ")]}'", 'null', '{}', '"text"', '42', '<!doctype html><html></html>', 'not json at all'];

/** Values of the wrong type, to put where the mapper expects something else. */
export const ODD_VALUES: unknown[] = [null, 0, -1, 1e308, 'x', '', [], [[]], {}, true, false];

/** A copy of `node` with entries shuffled (Fisher-Yates with the seeded PRNG). */
export function shuffled<T>(node: T[], seed: number): T[] {
  const r = rng(seed);
  const a = node.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * A deep copy of `root` with `count` randomly chosen array slots (any depth) replaced by odd values.
 */
export function mutated(root: unknown, seed: number, count: number): unknown {
  const copy = structuredClone(root);
  const r = rng(seed);
  for (let k = 0; k < count; k++) {
    let cur: unknown = copy;
    for (let depth = 0; depth < 8; depth++) {
      if (!Array.isArray(cur) || cur.length === 0) break;
      const i = Math.floor(r() * cur.length);
      if (r() < 0.3 || !Array.isArray(cur[i])) {
        cur[i] = structuredClone(ODD_VALUES[Math.floor(r() * ODD_VALUES.length)]);
        break;
      }
      cur = cur[i];
    }
  }
  return copy;
}
