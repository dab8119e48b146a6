import { test } from 'node:test';
import { SqliteStore } from './store.ts';
import { migrationsIn } from '../migrations.ts';
import { OLD_FLOAT_ROWS, assertMicros, beforeMicros } from '../money-migration.ts';

test('a SQLite store at the float schema migrates its money to exact integer micros', async () => {
  const s = new SqliteStore(':memory:');
  try {
    s.db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const m of beforeMicros(migrationsIn(new URL('./migrations/', import.meta.url)))) {
      s.db.exec(m.sql);
      s.db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 0);
    }
    for (const sql of OLD_FLOAT_ROWS) s.db.exec(sql);
    await s.migrate();
    await assertMicros(s);
  } finally { await s.close(); }
});
