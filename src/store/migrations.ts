/**
 * Migrations are numbered SQL files (`001_init.sql`, `002_...sql`) in a backend's migrations folder,
 * applied in order, each once, recorded in `schema_migrations`.
 *
 * @example migrationsIn(new URL('./migrations/', import.meta.url)) // [{version: 1, name: '001_init.sql', sql}]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export interface Migration { version: number; name: string; sql: string }

export function migrationsIn(dir: URL): Migration[] {
  const path = fileURLToPath(dir);
  const all = readdirSync(path)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort()
    .map((name) => ({ version: Number(name.split('_')[0]), name, sql: readFileSync(join(path, name), 'utf8') }));
  // Two files of one number (changes made side by side): the store records the version once, so the
  // second would never run. Refuse to start instead.
  const seen = new Map<number, string>();
  for (const m of all) {
    const other = seen.get(m.version);
    if (other) throw new Error(`migrations ${other} and ${m.name} share version ${m.version}: renumber one`);
    seen.set(m.version, m.name);
  }
  return all;
}
