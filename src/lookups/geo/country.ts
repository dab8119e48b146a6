/**
 * Country of a point and its English name. Country borders come from country-coder (exact
 * polygons, including territorial waters). The territory level is used so dependencies answer
 * their own ISO code (PR, HK, GL, RE) the way GeoNames files their places.
 */
import { iso1A2Code, feature } from '@rapideditor/country-coder';

/** Codes country-coder may answer that ISO 3166-1 does not assign, mapped to the assigned one. */
const NOT_ISO: Record<string, string> = { EA: 'ES' /* Ceuta & Melilla */ };

/**
 * ISO 3166-1 alpha-2 code of the country or territory at the point, or null (open sea, Antarctica).
 *
 * @example countryAt(40.7624, -73.9738) // 'US'
 */
export function countryAt(lat: number, lng: number): string | null {
  const code = iso1A2Code([lng, lat], { level: 'territory' });
  if (!code) return null;
  return NOT_ISO[code] ?? code;
}

// CLDR's short forms read oddly inside a postal address; these are the common English names.
const NAME_OVERRIDES: Record<string, string> = {
  CD: 'Democratic Republic of the Congo',
  CG: 'Republic of the Congo',
  HK: 'Hong Kong',
  MO: 'Macao',
  MM: 'Myanmar',
  PS: 'Palestine',
};

const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const names = new Map<string, string | null>();

/**
 * English name of a country for addresses, cached per code.
 *
 * @example countryName('US') // 'United States'
 */
export function countryName(code: string): string | null {
  let n = names.get(code);
  if (n === undefined) {
    n = NAME_OVERRIDES[code] ?? display.of(code)?.replace(/ & /g, ' and ') ?? feature(code)?.properties.nameEn ?? null;
    names.set(code, n);
  }
  return n;
}
