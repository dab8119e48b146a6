/**
 * The brand index behind `ai_chain_info`: the OpenStreetMap name-suggestion-index (npm
 * `name-suggestion-index`, BSD-3-Clause), file `dist/json/nsi.min.json`, its `brands/*` categories
 * (about 19,000 brands with names, OSM tags, countries and Wikidata ids). Built lazily on the first
 * lookup and kept: only the fields matching needs, keyed by normalised name (see docs/enrichments.md
 * for the start-up and memory cost).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { normalizeName } from './normalize.ts';
import { categoryPhrases } from './category.ts';

/** A string entry of an NSI locationSet: ISO code, UN M49 code, subdivision (`gb-eng`), or a .geojson id. */
export interface Brand {
  name: string;
  wikidata: string | null;
  /** NSI category path, e.g. `brands/amenity/cafe`. */
  path: string;
  phrases: string[];
  include: string[];
  exclude: string[];
}

export type BrandIndex = Map<string, Brand[]>;

interface NsiItem {
  displayName?: string;
  matchNames?: string[];
  locationSet?: { include?: unknown[]; exclude?: unknown[] };
  tags?: Record<string, string | undefined>;
}

const strings = (a: unknown[] | undefined) => (a ?? []).filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase());

/** Builds the index from NSI's JSON (`{ nsi: { 'brands/amenity/cafe': { items: [...] } } }`). */
export function buildBrandIndex(nsi: { nsi: Record<string, { items?: NsiItem[] }> }): BrandIndex {
  const index: BrandIndex = new Map();
  for (const [path, cat] of Object.entries(nsi.nsi)) {
    if (!path.startsWith('brands/')) continue;
    for (const it of cat.items ?? []) {
      const t = it.tags ?? {};
      const name = t.brand ?? t.name ?? it.displayName;
      if (!name) continue;
      const brand: Brand = {
        name, wikidata: t['brand:wikidata'] ?? null, path, phrases: categoryPhrases(path, t.cuisine),
        include: strings(it.locationSet?.include), exclude: strings(it.locationSet?.exclude),
      };
      const keys = new Set([name, it.displayName, t.name, t['name:en'], t['brand:en'], ...(it.matchNames ?? [])]
        .filter((x): x is string => typeof x === 'string').map(normalizeName).filter(Boolean));
      for (const k of keys) {
        const list = index.get(k);
        if (list) list.push(brand); else index.set(k, [brand]);
      }
    }
  }
  return index;
}

let cached: BrandIndex | null = null;

/** Whether this thread has built the index (it should be the lookup thread's, issue 15). */
export const brandIndexBuilt = () => cached !== null;

/** The packaged dataset's index, built on first use. */
export function brandIndex(): BrandIndex {
  if (!cached) {
    // The package's exports map names no data subpath: resolve its CommonJS entry (dist/js/nsi.cjs)
    // and read the JSON beside it.
    const entry = createRequire(import.meta.url).resolve('name-suggestion-index');
    const file = join(dirname(entry), '..', 'json', 'nsi.min.json');
    cached = buildBrandIndex(JSON.parse(readFileSync(file, 'utf8')));
  }
  return cached;
}
