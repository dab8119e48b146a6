/**
 * Test support for the PostgreSQL store: where the test database is, and a store living in a fresh
 * schema of its own that is dropped on close, so parallel test runs never see each other's rows.
 *
 * @example
 *   const url = pgTestUrl();
 *   storeConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { MIGRATIONS_TABLE, PostgresStore, migrated, type PostgresStoreOptions } from './store.ts';
import { migrationsIn, type Migration } from '../migrations.ts';

/** The database tests may use: TEST_DATABASE_URL, else DATABASE_URL; undefined when neither is set.
 *  @example const url = pgTestUrl(); test('x', { skip: !url && PG_SKIP }, ...) */
export function pgTestUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_DATABASE_URL || env.DATABASE_URL || undefined;
}

export const PG_SKIP = 'PostgreSQL not configured: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run this suite';

/** A new schema name for one test's store (also for a test that opens it itself: a harness, openBackends). */
export const scratchSchema = () => `trawl_test_${randomBytes(6).toString('hex')}`;

/**
 * Drops a schema and everything in it through `query`. A query of the test still finishing on another
 * connection (a closed queue's last sweep) can take its locks in the other order, and PostgreSQL then
 * picks the drop as the deadlock's victim (40P01): the other query ends, and the drop is tried again.
 */
export async function dropWithRetry(query: (sql: string) => Promise<unknown>, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== '40P01' || attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

/** Drops a test's schema and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await dropWithRetry((sql) => c.query(sql), schema);
  } finally {
    await c.end();
  }
}

/** A PostgresStore whose schema is dropped when it closes. */
export class ScratchPostgresStore extends PostgresStore {
  override async close(): Promise<void> {
    try {
      if (this.schema) await dropWithRetry((sql) => this.pool.query(sql), this.schema);
    } finally {
      await super.close();
    }
  }
}

/**
 * Opens a migrated store in a new schema `trawl_test_<random>`.
 *
 * @example const s = await openScratchPostgresStore('postgres://postgres@127.0.0.1:5432/test');
 */
export async function openScratchPostgresStore(url: string, o: Omit<PostgresStoreOptions, 'schema'> = {}): Promise<ScratchPostgresStore> {
  return migrated(new ScratchPostgresStore(url, { ...o, schema: scratchSchema() }));
}

/**
 * A store in a new schema where only some of the migrations ran, as an older trawl left its database;
 * `migrate()` then applies the rest, as an upgrade does.
 *
 * @example const s = await openOlderPostgresStore(url, (all) => all.filter((m) => m.version < 12));
 */
export async function openOlderPostgresStore(url: string, older: (all: Migration[]) => Migration[]): Promise<ScratchPostgresStore> {
  const schema = scratchSchema();
  const s = new ScratchPostgresStore(url, { schema });
  await s.pool.query(`CREATE SCHEMA ${schema}`);
  await s.pool.query(MIGRATIONS_TABLE);
  for (const m of older(migrationsIn(new URL('./migrations/', import.meta.url)))) {
    await s.pool.query(m.sql);
    await s.pool.query('INSERT INTO schema_migrations VALUES ($1, $2, 0)', [m.version, m.name]);
  }
  return s;
}
