/**
 * The two stores a cross-cutting test runs on: SQLite (nothing to set) and PostgreSQL in a scratch
 * schema (skipped without TEST_DATABASE_URL), as harness `backendEnv` plus a drop.
 *
 * @example for (const [name, skip, open] of bothStores()) test(`[${name}] ...`, { skip }, async () => { const db = open(); ... await db.drop(); });
 */
import { PG_SKIP, dropSchema, pgTestUrl, scratchSchema } from '../../src/store/postgres/testing.ts';

export type StoreCase = [string, string | false, () => { env: NodeJS.ProcessEnv; drop(): Promise<void> }];

export function bothStores(): StoreCase[] {
  const url = pgTestUrl();
  return [
    ['sqlite', false, () => ({ env: {}, drop: async () => {} })],
    ['postgres', !url && PG_SKIP, () => {
      const schema = scratchSchema();
      return { env: { DATABASE_URL: url, DATABASE_SCHEMA: schema }, drop: () => dropSchema(url!, schema) };
    }],
  ];
}
