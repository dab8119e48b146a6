/**
 * The credit rule while work runs (decision 26, src/billing/credit.ts), end to end on both stores: a
 * 1000-query request on a balance of 0.05, and 30 submits at once against the same small balance.
 * The balance never passes -credit_limit (a running query stops at what the account can pay,
 * src/billing/purse.ts); the queries left end with `balance_exhausted` in `errors`, the one cut at
 * the limit with `credit_limit`; a next query is refused unbilled (402, or balance_exhausted when less
 * than one record's price is left).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { PG_SKIP, dropSchema, pgTestUrl, scratchSchema } from '../src/store/postgres/testing.ts';
import { toMicros } from '../src/billing/money.ts';

const url = pgTestUrl();
/** One test query finds 5 places at the default 0.003: an item is worth 0.015. */
const RECORD = toMicros(0.003);

const stores: Array<[string, string | false, () => Promise<{ env: NodeJS.ProcessEnv; drop(): Promise<void> }>]> = [
  ['sqlite', false, async () => ({ env: {}, drop: async () => {} })],
  ['postgres', !url && PG_SKIP, async () => {
    const schema = scratchSchema();
    return { env: { DATABASE_URL: url, DATABASE_SCHEMA: schema }, drop: () => dropSchema(url!, schema) };
  }],
];

const queries = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `query=${encodeURIComponent(`n=5;${tag}=${i}`)}`).join('&');

async function finished(h: Harness, ids: string[]): Promise<void> {
  await until(async () => (await Promise.all(ids.map((id) => h.svc.ctx.store.getRequest(id)))).every((r) => r?.finishedAt !== null), 120_000, 'requests end');
}

/** The balance moved by exactly the ledger, to less than one record's price, and not below -credit_limit. */
async function assertBound(h: Harness, accountId: string, startMicros: number): Promise<number> {
  const a = (await h.svc.ctx.store.getAccount(accountId))!;
  const spent = (await h.svc.ctx.store.usageForPeriod(accountId, 0, Date.now() + 60_000)).reduce((s, l) => s + l.amountMicros, 0);
  assert.equal(a.balanceMicros, startMicros - spent, 'the balance moved by exactly the ledger');
  assert.ok(a.balanceMicros < RECORD, `the work drew the balance to the limit (${a.balanceMicros})`);
  assert.ok(a.balanceMicros >= -a.creditLimitMicros, `never past the limit (${a.balanceMicros} micros)`);
  return a.balanceMicros;
}

/** A next query costs nothing: a 402, or (less than one record's price left) a Failure, balance_exhausted. */
async function assertRefused(h: Harness): Promise<void> {
  const before = (await h.svc.ctx.store.getAccount(h.account.id))!.balanceMicros;
  const next = await h.json('/maps/search?query=n=1&async=false');
  if (next.status !== 402) {
    assert.equal(next.body.status, 'Failure', JSON.stringify(next.body));
    assert.equal(next.body.errors[0].error.type, 'balance_exhausted');
  }
  assert.equal((await h.svc.ctx.store.getAccount(h.account.id))!.balanceMicros, before);
}

for (const [name, skip, open] of stores) {
  test(`[${name}] a 1000-query request on a 0.05 balance stops at the limit; the rest are balance_exhausted; then refused`, { skip, timeout: 180_000 }, async () => {
    const db = await open();
    const h = await startHarness({ balance: 0.05, backendEnv: db.env });
    try {
      const sub = await h.json(`/maps/search?${queries(1000, 'i')}`);
      assert.equal(sub.status, 202, JSON.stringify(sub.body));
      await finished(h, [sub.body.id]);
      await assertBound(h, h.account.id, toMicros(0.05));
      const r = await h.json(`/requests/${sub.body.id}`);
      assert.equal(r.body.status, 'Success', 'the queries that ran before the limit are delivered');
      const kept = (r.body.data as unknown[][]).reduce((n, d) => n + d.length, 0);
      const row = (await h.svc.ctx.store.getRequest(sub.body.id))!;
      assert.equal(row.usage, kept, 'billed exactly what was delivered');
      assert.equal(kept, 16, '0.05 pays for 16 records of 0.003: three whole queries and one cut at the limit');
      const errors = r.body.errors as { query: string; error: { type: string; message: string } }[];
      const cut = errors.filter((e) => e.error.type === 'credit_limit');
      assert.equal(cut.length, 1, 'one query stopped at the limit with its records');
      assert.equal(errors.length, 1000 - 3);
      assert.ok(errors.every((e) => e === cut[0] || (e.error.type === 'balance_exhausted' && e.error.message === 'balance exhausted')), JSON.stringify(errors[0]));
      await assertRefused(h);
    } finally {
      await h.close();
      await db.drop();
    }
  });

  test(`[${name}] 30 submits at once on a 0.05 balance: never past the limit, then refused`, { skip, timeout: 180_000 }, async () => {
    const db = await open();
    const h = await startHarness({ balance: 0.05, backendEnv: db.env });
    try {
      const subs = await Promise.all(Array.from({ length: 30 }, (_, i) => h.json(`/maps/search?${queries(3, `r${i}q`)}`)));
      const accepted = subs.filter((s) => s.status === 202).map((s) => s.body.id as string);
      assert.ok(subs.every((s) => s.status === 202 || s.status === 402), JSON.stringify(subs.find((s) => s.status !== 202)?.body));
      assert.ok(accepted.length >= 1);
      await finished(h, accepted);
      await assertBound(h, h.account.id, toMicros(0.05));
      const ends = await Promise.all(accepted.map((id) => h.json(`/requests/${id}`)));
      const refused = ends.flatMap((e) => (e.status === 200 ? e.body.errors ?? [] : [])).length
        + ends.filter((e) => e.status === 204).length;
      assert.ok(refused > 0, 'queries beyond the limit were refused');
      for (const e of ends.filter((x) => x.status === 204)) assert.match(e.headers.get('x-request-error') ?? '', /^balance_exhausted/);
      await assertRefused(h);
    } finally {
      await h.close();
      await db.drop();
    }
  });
}
