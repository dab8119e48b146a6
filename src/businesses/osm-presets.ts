/**
 * OSM tags named the way the iD editor names them: the English name of the best-matching preset of
 * the iD tagging schema (npm `@openstreetmap/id-tagging-schema`, ISC, pinned; its `dist/presets.min.json`
 * and `dist/translations/en.min.json`). `shop=doityourself` is a "DIY Store",
 * `amenity=place_of_worship` + `religion=christian` a "Christian Church".
 *
 * Matching follows the schema's documented rules: every tag of a preset must be on the object (`*`
 * matches any value, for half the weight), each matching tag adds the preset's `matchScore` (default
 * 1), so a preset with more matching tags wins; `addTags` the object also carries add to it; a
 * `searchable: false` preset only wins a tie it would otherwise share. Equal scores keep the schema's
 * order, so the answer is deterministic for the pinned version.
 *
 * The lookup is built once per process on first use (a few ms, some hundred KB) and keyed by `key=value`,
 * so naming one object looks at the handful of presets that carry its tag.
 *
 * @example presetFor(presetIndex(), 'amenity', 'place_of_worship', { religion: 'christian' })
 *   // { name: 'Christian Church', score: 2, base: 'Place of Worship', implies: [...] }
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A preset as the schema's dist files give it (the fields matching reads). */
export interface RawPreset {
  tags: Record<string, string>;
  addTags?: Record<string, string>;
  matchScore?: number;
  searchable?: boolean;
  /** `{other/id}`: reuse that preset's name (regional and unsearchable variants). */
  name?: string;
  locationSet?: { include?: unknown[] };
}

interface Candidate {
  name: string;
  tags: [string, string][];
  /** addTags beyond tags: matching ones add to the score. */
  extra: [string, string][];
  weight: number;
  searchable: boolean;
}

/** `key=value` → the presets whose tags carry it, in the schema's order. */
export type PresetIndex = Map<string, Candidate[]>;

export interface PresetMatch {
  name: string;
  score: number;
  /** The name of the preset for the tag alone when the match is a more specific one (`Place of Worship`). */
  base: string | null;
  /** Tags the preset stands for (its tags and addTags): another tag among them names nothing new. */
  implies: [string, string][];
}

/** A preset limited to some regions: the import does not place objects in regions, so it is left out. */
const regional = (p: RawPreset) => {
  const inc = p.locationSet?.include;
  return !!inc && !inc.some((r) => r === 'Planet' || r === '001' || r === 1);
};

export function buildPresetIndex(presets: Record<string, RawPreset>, names: Record<string, { name?: string }>): PresetIndex {
  const nameOf = (id: string, depth = 0): string | null => {
    const own = names[id]?.name;
    if (own) return own;
    const ref = /^\{(.+)\}$/.exec(presets[id]?.name ?? '');
    return ref && depth < 5 ? nameOf(ref[1], depth + 1) : null;
  };
  const index: PresetIndex = new Map();
  for (const [id, p] of Object.entries(presets)) {
    const name = nameOf(id);
    if (!name || regional(p)) continue;
    const tags = Object.entries(p.tags);
    const extra = Object.entries(p.addTags ?? {}).filter(([k]) => !(k in p.tags));
    const c: Candidate = { name, tags, extra, weight: p.matchScore ?? 1, searchable: p.searchable !== false };
    // Only exact tags index a preset: one whose tags are all `*` (`shop=*`, "Shop") says less than the
    // value itself, which is the fallback.
    for (const [k, v] of tags) if (v !== '*') { const key = `${k}=${v}`; const l = index.get(key); if (l) l.push(c); else index.set(key, [c]); }
  }
  return index;
}

function scoreOf(c: Candidate, key: string, value: string, tags: Record<string, string>): number {
  let s = 0;
  for (const [k, v] of c.tags) {
    const has = k === key ? value : tags[k];
    if (v === '*' ? has === undefined : has !== v) return -1;
    s += v === '*' ? c.weight / 2 : c.weight;
  }
  for (const [k, v] of c.extra) if (tags[k] === v) s += c.weight;
  return c.searchable ? s : s * 0.999;
}

/**
 * The best preset for the object's tag `key=value` (one value of a `;` list) given all its tags, or
 * null when no preset names that tag.
 */
export function presetFor(index: PresetIndex, key: string, value: string, tags: Record<string, string>): PresetMatch | null {
  const cs = index.get(`${key}=${value}`);
  if (!cs) return null;
  let best: Candidate | null = null;
  let top = -1;
  let base: Candidate | null = null;
  for (const c of cs) {
    const s = scoreOf(c, key, value, tags);
    if (s > top) { top = s; best = c; }
    if (!base && c.tags.length === 1 && c.searchable) base = c;
  }
  base ??= cs.find((c) => c.tags.length === 1) ?? null;
  if (!best) return null;
  return { name: best.name, score: top, base: base && base !== best && base.name !== best.name ? base.name : null, implies: [...best.tags, ...best.extra] };
}

let cached: PresetIndex | null = null;

/** The pinned schema's index, built on first use. */
export function presetIndex(): PresetIndex {
  if (!cached) {
    // The package names no entry point that exists (its `main` is a build script left out of the
    // tarball): resolve the data files themselves.
    const req = createRequire(import.meta.url);
    const read = (f: string) => JSON.parse(readFileSync(req.resolve(`@openstreetmap/id-tagging-schema/dist/${f}`), 'utf8'));
    cached = buildPresetIndex(read('presets.min.json'), read('translations/en.min.json').en.presets.presets);
  }
  return cached;
}
