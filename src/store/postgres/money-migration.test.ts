import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ScratchPostgresStore, PG_SKIP, pgTestUrl } from './testing.ts';
import { migrationsIn } from '../migrations.ts';
import { OLD_FLOAT_ROWS, assertMicros, beforeMicros } from '../money-migration.ts';

const url = pgTestUrl();

test('a PostgreSQL store at the float schema migrates its money to exact integer micros', { skip: !url && PG_SKIP }, async () => {
  const schema = `trawl_test_${randomBytes(6).toString('hex')}`;
  const s = new ScratchPostgresStore(url!, { schema });
  try {
    await s.pool.query(`CREATE SCHEMA ${schema}`);
    await s.pool.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)');
    for (const m of beforeMicros(migrationsIn(new URL('./migrations/', import.meta.url)))) {
      await s.pool.query(m.sql);
      await s.pool.query('INSERT INTO schema_migrations VALUES ($1, $2, 0)', [m.version, m.name]);
    }
    for (const sql of OLD_FLOAT_ROWS) await s.pool.query(sql);
    await s.migrate();
    await assertMicros(s);
  } finally { await s.close(); }
});
