/**
 * Reads the truth set (`points.tsv`, drawn by draw.ts) and scores the reverse geocoder on it: for
 * each field, how many points got the right value, a wrong value, or null. A field whose truth is
 * empty for a point is not counted for that point.
 */
import { readFileSync } from 'node:fs';
import type { ReverseGeocodingRecord } from '../record.ts';

export const TRUTH_TSV = new URL('./points.tsv', import.meta.url);

export interface TruthPoint {
  id: number;
  split: 'tuning' | 'held_out';
  lat: number;
  lng: number;
  country: string;
  state: string;
  county: string;
  /** Accepted city names. */
  cities: string[];
  postal: string;
}

export const MEASURED = ['country_code', 'state', 'county', 'city', 'postal_code'] as const;
export type MeasuredField = (typeof MEASURED)[number];

export interface Tally { right: number; wrong: number; null: number }
export type Scores = Record<MeasuredField, Tally>;

/** @example readTruth().length // 400 */
export function readTruth(file: URL | string = TRUTH_TSV): TruthPoint[] {
  const out: TruthPoint[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line || line.startsWith('#') || line.startsWith('id\t')) continue;
    const [id, split, lat, lng, country, state, county, city, postal] = line.split('\t');
    out.push({ id: Number(id), split: split as TruthPoint['split'], lat: Number(lat), lng: Number(lng), country, state, county, cities: city ? city.split('|') : [], postal: postal ?? '' });
  }
  return out;
}

/** Truth values of a point per field (empty = not known). */
function expected(p: TruthPoint, f: MeasuredField): string[] {
  switch (f) {
    case 'country_code': return [p.country];
    case 'state': return p.state ? [p.state] : [];
    case 'county': return p.county ? [p.county] : [];
    case 'city': return p.cities;
    case 'postal_code': return p.postal ? [p.postal] : [];
  }
}

export interface Miss { id: number; field: MeasuredField; got: string; want: string[] }

/**
 * Scores `reverse` on the points; `misses` gets every wrong value (for reading, not for tuning on
 * the held-out half).
 */
export function score(points: TruthPoint[], reverse: (lat: number, lng: number) => ReverseGeocodingRecord, misses?: Miss[]): Scores {
  const s = Object.fromEntries(MEASURED.map((f) => [f, { right: 0, wrong: 0, null: 0 }])) as Scores;
  for (const p of points) {
    const r = reverse(p.lat, p.lng);
    for (const f of MEASURED) {
      const want = expected(p, f);
      if (!want.length) continue;
      const got = r[f];
      if (got === null) s[f].null++;
      else if (want.includes(got)) s[f].right++;
      else {
        s[f].wrong++;
        misses?.push({ id: p.id, field: f, got, want });
      }
    }
  }
  return s;
}

/** Share of the counted points, in percent with one decimal. */
export const pct = (n: number, t: Tally): number => Math.round((n / Math.max(1, t.right + t.wrong + t.null)) * 1000) / 10;

/**
 * The accuracy table published in docs/lookups-geo.md (Markdown), one row per field and split.
 *
 * @example truthTable({ tuning: s1, held_out: s2, all: s3 })
 */
export function truthTable(splits: Record<'tuning' | 'held_out' | 'all', Scores>): string {
  const rows = ['| Field | Points with a truth | Right | Wrong | Null | Wrong, held-out half |', '|---|---|---|---|---|---|'];
  for (const f of MEASURED) {
    const t = splits.all[f];
    const h = splits.held_out[f];
    const n = t.right + t.wrong + t.null;
    rows.push(`| \`${f}\` | ${n} | ${pct(t.right, t)} % | ${pct(t.wrong, t)} % (${t.wrong}) | ${pct(t.null, t)} % | ${pct(h.wrong, h)} % (${h.wrong} of ${h.right + h.wrong + h.null}) |`);
  }
  return rows.join('\n');
}
