/**
 * Account self-service (src/contract/profile.ts): list, create and revoke the account's own API
 * keys, and usage per product per UTC day for the dashboard's chart.
 *
 * @example
 *   await createKey(ctx, account.id)            // { id, api_key: 'trw_...', prefix, created }
 *   await usagePerDay(ctx, account, 7)          // { currency, days: [{ date: '2026-11-17', products: [...] }, ...] }
 *   await priceList(ctx, account)               // { currency: 'usd', prices: [{ product: 'engine_maps_service_v2', unit: 'place', unit_price: '0.003000', ... }] }
 */
import type { Account } from '../store/contract.ts';
import type { AppContext } from './context.ts';
import { AppError } from './errors.ts';
import { createApiKey } from './accounts.ts';
import { shownAmount, fixedMicros } from '../billing/money.ts';
import { priceOf } from './submit.ts';
import { BUSINESSES_PRODUCT } from './businesses.ts';
import { dataEndpoints } from '../contract/endpoints/index.ts';
import { DEFAULT_ENRICHMENT_PRICES } from '../billing/prices.ts';
import { byProduct } from './balance.ts';

const DAY_MS = 86_400_000;
const sec = (ms: number) => Math.floor(ms / 1000);

export async function listKeys(ctx: AppContext, accountId: string) {
  const rows = await ctx.store.listApiKeys(accountId);
  return rows.map((k) => ({ id: k.id, prefix: k.prefix, created: sec(k.createdAt), revoked: k.revokedAt === null ? null : sec(k.revokedAt) }))
    .sort((a, b) => b.created - a.created);
}

export async function createKey(ctx: AppContext, accountId: string) {
  const now = ctx.now();
  const k = await createApiKey(ctx.store, accountId, now);
  const row = (await ctx.store.listApiKeys(accountId)).find((r) => r.id === k.id);
  return { id: k.id, api_key: k.key, prefix: row?.prefix ?? k.key.slice(0, 8), created: sec(now) };
}

/** Only the account's own keys; the last active one stays, so an account cannot lock itself out. */
export async function revokeKey(ctx: AppContext, accountId: string, keyId: string) {
  const keys = await ctx.store.listApiKeys(accountId);
  const key = keys.find((k) => k.id === keyId && k.revokedAt === null);
  if (!key) throw new AppError(404, `no active key ${keyId.slice(0, 100)}`);
  if (keys.filter((k) => k.revokedAt === null).length === 1) throw new AppError(422, 'the last active key of the account cannot be revoked: create another one first');
  await ctx.store.revokeApiKey(keyId, ctx.now());
  return { revoked: keyId };
}

export async function usagePerDay(ctx: AppContext, account: Account, days: number) {
  const today = Math.floor(ctx.now() / DAY_MS) * DAY_MS;
  const starts = Array.from({ length: days }, (_, i) => today - (days - 1 - i) * DAY_MS);
  const out = await Promise.all(starts.map(async (start) => {
    const lines = await ctx.store.usageForPeriod(account.id, start, start + DAY_MS);
    const products = byProduct(lines).map(({ micros, lines: _, ...p }) => ({ ...p, amount: shownAmount(micros, account.currency), amount_micros: micros }));
    return { date: new Date(start).toISOString().slice(0, 10), products };
  }));
  return { currency: account.currency, days: out };
}

/** The account's price of every product, as billing will apply it (its own price, else the default). */
export async function priceList(ctx: AppContext, account: Account) {
  const products: { product: string; unit: string; endpoint?: string; fallback?: number }[] = [
    ...dataEndpoints.map((e) => ({ product: e.service, unit: e.unit, endpoint: e.path })),
    ...Object.entries(DEFAULT_ENRICHMENT_PRICES).map(([product, fallback]) => ({ product, unit: 'place', fallback })),
    { product: BUSINESSES_PRODUCT, unit: 'business' },
  ];
  const prices = await Promise.all(products.map(async ({ fallback, ...p }) => {
    const micros = await priceOf(ctx, p.product, p.unit, account.id, fallback);
    return { ...p, unit_price: fixedMicros(micros), unit_price_micros: micros };
  }));
  return { currency: account.currency, prices };
}
