/**
 * What a request will cost at most, before it runs: the account's price of the endpoint's product
 * (GET /profile/prices) × queries × units per query (the limit given, else its default), plus each
 * enrichment asked for per place. Integer micros throughout, like the billing.
 */
import type { PriceList } from '../../clients/typescript/src/client.ts';

/** Parameters that bound the units one query returns, multiplied (places × reviews per place). */
const PER_QUERY = ['limit', 'perQuery', 'limit_per_query', 'reviewsLimit'];

export interface Estimate { maxMicros: number | null; units: number | null; unit: string; unitPriceMicros: number; lines: string[] }

/** Micros as currency text: at least 2 decimals, at most 6, exact. */
export function money(micros: number, currency: string): string {
  const units = Math.floor(micros / 1_000_000);
  const frac = String(micros % 1_000_000).padStart(6, '0').replace(/0{1,4}$/, '');
  return `${units}.${frac.padEnd(2, '0')} ${currency.toUpperCase()}`;
}

/**
 * @param values the parameters as the form would send them; `defaults`: every parameter of the endpoint, with its default (or undefined).
 * @example estimate(prices, '/maps/search', 2, { limit: '20' }, { limit: 500 }) // maxMicros 120_000 (2 × 20 × 3,000)
 */
export function estimate(prices: PriceList, endpoint: string, queries: number, values: Record<string, unknown>, defaults: Record<string, unknown>): Estimate | null {
  const p = prices.prices.find((x) => x.endpoint === endpoint);
  if (!p) return null;
  let perQuery = 1;
  // A bound left out with no default (a whole thread), or 0 (= all), leaves the cost open.
  let unbounded = false;
  const lines: string[] = [];
  for (const name of PER_QUERY.filter((n) => n in defaults)) {
    const n = Number(values[name] ?? defaults[name] ?? 0);
    if (n > 0) perQuery *= n;
    else unbounded = true;
  }
  let units = queries * perQuery;
  const total = Number(values.totalLimit);
  if (Number.isFinite(total) && total > 0) units = Math.min(units, total);
  let micros = units * p.unit_price_micros;
  lines.push(`${queries.toLocaleString()} ${queries === 1 ? 'query' : 'queries'} × up to ${perQuery.toLocaleString()} ${p.unit}${perQuery === 1 ? '' : 's'} × ${money(p.unit_price_micros, prices.currency)}`);
  const enrichments = Array.isArray(values.enrichment) ? values.enrichment as string[] : [];
  for (const e of enrichments) {
    const ep = prices.prices.find((x) => x.product === e);
    if (!ep) continue;
    micros += units * ep.unit_price_micros;
    lines.push(`${e}: ${money(ep.unit_price_micros, prices.currency)} per place`);
  }
  return { maxMicros: unbounded ? null : micros, units: unbounded ? null : units, unit: p.unit, unitPriceMicros: p.unit_price_micros, lines };
}
