/**
 * The PostgreSQL cluster store's timeouts (./postgres.ts) against a real server (TEST_DATABASE_URL)
 * behind a loopback TCP relay that holds each new connection before passing it on: a connection
 * slower to open than the old 1 s limit (a loaded box) is waited for, and the link stays shared; one
 * that never opens fails the call with pg's connect timeout once the store's limit passes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Socket } from 'node:net';
import { PostgresClusterStore } from './postgres.ts';
import { ClusterLink, STORE_TIMEOUT_MS } from './link.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../../store/postgres/testing.ts';

const pgUrl = pgTestUrl();

/** A relay to `target` that holds each connection `holdMs` before connecting on (Infinity: never). */
async function relay(target: URL, holdMs: number) {
  const sockets = new Set<Socket>();
  let opened = 0;
  const server = createServer((client) => {
    opened++;
    sockets.add(client);
    client.pause();
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    if (!Number.isFinite(holdMs)) return;
    setTimeout(() => {
      if (client.destroyed) return;
      const up = connect(Number(target.port || 5432), target.hostname);
      sockets.add(up);
      up.on('error', () => client.destroy());
      up.on('close', () => { sockets.delete(up); client.destroy(); });
      client.on('close', () => up.destroy());
      up.on('connect', () => { client.pipe(up).pipe(client); client.resume(); });
    }, holdMs);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    opened: () => opened,
    /** `url` with its host and port the relay's. */
    via(url: string) { const u = new URL(url); u.hostname = '127.0.0.1'; u.port = String(port); return u.toString(); },
    close: () => new Promise<void>((ok) => { for (const s of sockets) s.destroy(); server.close(() => ok()); }),
  };
}

test('a connection slower to open than a second is waited for: the call answers and the link stays shared', { skip: !pgUrl && PG_SKIP }, async () => {
  const scratch = await openScratchPostgresStore(pgUrl!);
  const slow = await relay(new URL(pgUrl!), 1_200);
  const config = scratch.clientConfig() as { connectionString: string };
  const store = new PostgresClusterStore({ ...config, connectionString: slow.via(config.connectionString) });
  const link = new ClusterLink(store, { id: 'slow-connect' });
  try {
    // With the old 1 s connect timeout this failed ('Connection terminated due to connection timeout') and
    // the process paced alone.
    const lease = await store.lease('slow.example:443', 2, 40);
    assert.equal(lease.count, 2);
    await link.start();
    assert.equal(link.degraded, false, 'the link shares the store');
    assert.equal(link.stats.storeErrors, 0);
    assert.ok(slow.opened() >= 1);
    assert.ok(STORE_TIMEOUT_MS > 1_200, 'the limit leaves room for a slow connection');
  } finally {
    await link.close();
    await store.close();
    await slow.close();
    await scratch.close();
  }
});

test('a connection that never opens fails the call with a connection timeout once the limit passes', { skip: !pgUrl && PG_SKIP }, async () => {
  const scratch = await openScratchPostgresStore(pgUrl!);
  const hole = await relay(new URL(pgUrl!), Infinity);
  const config = scratch.clientConfig() as { connectionString: string };
  // A short limit keeps the test short; the default is the link's (STORE_TIMEOUT_MS).
  const store = new PostgresClusterStore({ ...config, connectionString: hole.via(config.connectionString) }, 1_200);
  try {
    const t = performance.now();
    await assert.rejects(store.lease('hole.example:443', 1, 40), /connection timeout/);
    assert.ok(performance.now() - t >= 1_100, 'not before the limit');
    assert.equal(hole.opened(), 1);
  } finally {
    await store.close();
    await hole.close();
    await scratch.close();
  }
});
