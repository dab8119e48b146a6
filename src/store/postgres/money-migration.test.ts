import { test } from 'node:test';
import { PG_SKIP, openOlderPostgresStore, pgTestUrl } from './testing.ts';
import { OLD_FLOAT_ROWS, assertMicros, beforeMicros } from '../money-migration.ts';

const url = pgTestUrl();

test('a PostgreSQL store at the float schema migrates its money to exact integer micros', { skip: !url && PG_SKIP }, async () => {
  const s = await openOlderPostgresStore(url!, beforeMicros);
  try {
    for (const sql of OLD_FLOAT_ROWS) await s.pool.query(sql);
    await s.migrate();
    await assertMicros(s);
  } finally { await s.close(); }
});
