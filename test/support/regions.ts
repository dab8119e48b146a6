/** Regions of several countries as GET /locations lists them, those an area can be (a few listed
 *  names are not place regions): the locations of the issue 39 task bodies (tests and bench). */
import { locationsFor } from '../../src/lookups/geo/locations.ts';
import { checkArea } from '../../src/lookups/geo/area/resolve.ts';

export function regions(n: number): string[] {
  const out: string[] = [];
  for (const cc of ['US', 'FR', 'DE', 'IT', 'ES', 'BR', 'MX', 'IN', 'JP', 'CN', 'RU', 'CA', 'AU', 'GB', 'PL', 'TR', 'ID', 'PH', 'NG', 'AR']) {
    for (const it of locationsFor(cc).items) if (out.length < n && !checkArea(it.value)) out.push(it.value);
  }
  return out;
}
