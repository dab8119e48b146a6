/**
 * `ai_chain_info`: is a place one branch of a chain, and which? Deterministic rule, no model:
 *  1. a brand whose normalised name (or one of its NSI match names) equals the place's normalised
 *     name, or the name before a branch suffix (`Starbucks - Syntagma`);
 *  2. the brand operates in the place's country (its NSI locationSet includes the country, a region
 *     containing it, or the world, and does not exclude it);
 *  3. the brand's category fits the place's category (./category.ts).
 * Several brands left: the one listed for the country itself before a region or the world, then the
 * lowest Wikidata id (stable). None: `is_chain` false. A place without name or category: null fields.
 */
import { featuresContaining } from '@rapideditor/country-coder';
import type { Brand, BrandIndex } from './brands.ts';
import { nameVariants } from './normalize.ts';
import { categoryFits, placeCategoryText } from './category.ts';

export interface ChainInfo {
  is_chain: boolean | null;
  chain_name: string | null;
  chain_wikidata: string | null;
}

const regionCache = new Map<string, Set<string>>();

/** Lower-cased ids of the country and every region containing it (M49 codes, `001`, Wikidata ids). */
function regionsOf(cc: string): Set<string> {
  let s = regionCache.get(cc);
  if (!s) {
    s = new Set([cc]);
    for (const f of featuresContaining(cc.toUpperCase())) {
      const p = f.properties as unknown as Record<string, string | undefined>;
      for (const v of [p.id, p.iso1A2, p.iso1A3, p.m49, p.wikidata]) if (v) s.add(v.toLowerCase());
    }
    s.add('001');
    regionCache.set(cc, s);
  }
  return s;
}

/** How a location entry relates to the country: 2 names it (or a part of it), 1 a region holding it, 0 neither. */
function locationFit(entry: string, cc: string, regions: Set<string>): number {
  if (entry === cc || entry.startsWith(`${cc}-`)) return 2;
  return regions.has(entry) ? 1 : 0;
}

function countryFit(b: Brand, cc: string | null): number {
  // Without a country only worldwide brands can be told apart from a namesake.
  if (!cc) return b.include.includes('001') ? 1 : 0;
  const regions = regionsOf(cc);
  if (b.exclude.some((e) => locationFit(e, cc, regions) > 0)) return 0;
  return Math.max(0, ...b.include.map((e) => locationFit(e, cc, regions)));
}

const qid = (w: string | null) => (w ? Number(w.slice(1)) || Infinity : Infinity);

export function matchChain(index: BrandIndex, r: Record<string, unknown>): ChainInfo {
  const name = typeof r.name === 'string' ? r.name : '';
  const catText = placeCategoryText(r);
  if (!name.trim() || !catText) return { is_chain: null, chain_name: null, chain_wikidata: null };
  const cc = typeof r.country_code === 'string' && /^[a-z]{2}$/i.test(r.country_code) ? r.country_code.toLowerCase() : null;
  const found: { b: Brand; fit: number }[] = [];
  for (const v of nameVariants(name)) {
    for (const b of index.get(v) ?? []) {
      const fit = countryFit(b, cc);
      if (fit > 0 && categoryFits(catText, b.phrases)) found.push({ b, fit });
    }
    if (found.length) break;
  }
  if (!found.length) return { is_chain: false, chain_name: null, chain_wikidata: null };
  found.sort((x, y) => y.fit - x.fit || qid(x.b.wikidata) - qid(y.b.wikidata) || x.b.name.localeCompare(y.b.name));
  return { is_chain: true, chain_name: found[0].b.name, chain_wikidata: found[0].b.wikidata };
}
