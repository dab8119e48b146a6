import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from './testing.ts';

const url = pgTestUrl();

test('generic queries: planned generically on a held connection; a failed statement or a lost connection lets it go, the next query holds another; close does not wait on it', { skip: !url && PG_SKIP }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const pid = async () => (await s.genericQuery({ text: 'SELECT pg_backend_pid() AS pid, current_setting(\'plan_cache_mode\') AS mode' })).rows[0];
    const first = await pid();
    assert.equal(first.mode, 'force_generic_plan');
    assert.equal((await pid()).pid, first.pid, 'one of the generic connections is held between queries');
    assert.equal((await s.pool.query('SHOW plan_cache_mode')).rows[0].plan_cache_mode, 'auto', 'the store\'s own connections plan as before');

    await assert.rejects(s.genericQuery({ text: 'SELECT * FROM no_such_table' }), /no_such_table/);
    const second = await pid();
    assert.notEqual(second.pid, first.pid, 'a failed statement let the held connection go');

    await s.pool.query('SELECT pg_terminate_backend($1)', [second.pid]);
    await sleep(200);
    const third = await pid();
    assert.notEqual(third.pid, second.pid, 'a connection lost while held is replaced, and the process lives');
  } finally {
    await s.close();
  }
});
