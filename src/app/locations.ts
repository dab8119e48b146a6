/**
 * `GET /locations?country=XX` (interface 2.10): states and their cities, built once per country from
 * shipped GeoNames data (src/lookups/geo/locations.ts) and cached there.
 *
 * @example await locationsView(ctx, 'us') // { items: [{ title: 'Alabama', value: 'US>Alabama', children: [...] }], supports_zip_codes: true }
 */
import type { AppContext } from './context.ts';
import { AppError } from './errors.ts';
import { isKnownCountry, locationsFor } from '../lookups/geo/locations.ts';

export async function locationsView(_ctx: AppContext, country: string) {
  const code = country.toUpperCase();
  if (!isKnownCountry(code)) throw new AppError(422, `country must be a two-letter country code with location data, got ${JSON.stringify(country)}`);
  return locationsFor(code);
}
