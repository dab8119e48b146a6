/**
 * `GET /profile/balance` (interface 2.9): the prepaid balance and the upcoming invoice of the current
 * calendar month (UTC), computed from the usage ledger. Usage is paid from the balance as it happens,
 * so the invoice shows it as applied balance; what the balance could not cover (credit used) is due.
 * Every sum is taken in integer micros and converted once, at the end (src/billing/money.ts):
 * amounts rounded to the currency's precision (decision 26) so that lines add up to their total
 * (shownParts), each with its exact amount in micros beside it (`amount_micros`, `total_micros`, ...:
 * these add up exactly too), unit prices exact (fractions of a cent).
 *
 * @example await balanceView(ctx, account) // { balance: 99.89, account_status: 'valid', upcoming_invoice: {...} }
 */
import type { Account, UsageLine } from '../store/contract.ts';
import type { AppContext } from './context.ts';
import { isPastDue } from './submit.ts';
import { fromMicros, shownAmount, shownParts } from '../billing/money.ts';

export function billingPeriod(now: number): { start: number; end: number } {
  const d = new Date(now);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

/**
 * Usage lines summed per product (quantity and micros), each with its lines.
 * @example byProduct(lines)[0] // { product_name: 'engine_maps_search', unit: 'place', quantity: 44, micros: 132000, lines: [...] }
 */
export function byProduct(usage: UsageLine[]) {
  const out = new Map<string, { product_name: string; unit: string; quantity: number; micros: number; lines: UsageLine[] }>();
  for (const u of usage) {
    const p = out.get(u.product) ?? { product_name: u.product, unit: u.unit, quantity: 0, micros: 0, lines: [] };
    p.quantity += u.quantity;
    p.micros += u.amountMicros;
    p.lines.push(u);
    out.set(u.product, p);
  }
  return [...out.values()];
}

export async function balanceView(ctx: AppContext, a: Account) {
  const { start, end } = billingPeriod(ctx.now());
  const usage = await ctx.store.usageForPeriod(a.id, start, end);
  const amount = (m: number) => shownAmount(m, a.currency);
  const total = usage.reduce((s, u) => s + u.amountMicros, 0);
  const uncovered = a.balanceMicros < 0 ? Math.min(total, -a.balanceMicros) : 0;
  const applied = total - uncovered;
  // Rounded parts that add up to their rounded whole (money.ts shownParts); the *_micros beside each are exact.
  const [dueShown, appliedShown] = shownParts([uncovered, applied], a.currency);
  const products = byProduct(usage);
  const productShown = shownParts(products.map((p) => p.micros), a.currency);
  return {
    balance: amount(a.balanceMicros), balance_micros: a.balanceMicros,
    account_status: isPastDue(a) ? 'past_due' : 'valid',
    upcoming_invoice: {
      amount_due: fromMicros(dueShown), applied_balance: fromMicros(appliedShown), total: amount(total), subtotal: amount(total), total_discount: 0,
      amount_due_micros: uncovered, applied_balance_micros: applied, total_micros: total,
      currency: a.currency, period_start: Math.floor(start / 1000), period_end: Math.floor(end / 1000), collection_method: 'charge_automatically',
      subscription_id: `sub_${a.id}`,
      products_lines: products.map(({ micros, lines, ...p }, i) => {
        const lineShown = shownParts(lines.map((u) => u.amountMicros), a.currency, productShown[i]);
        return {
          ...p, amount: fromMicros(productShown[i]), amount_micros: micros,
          lines: lines.map((u, k) => ({ quantity: u.quantity, amount: fromMicros(lineShown[k]), amount_micros: u.amountMicros, currency: a.currency, unit_price: String(fromMicros(u.unitPriceMicros)) })),
        };
      }),
    },
    coupon: {},
    id: a.id,
  };
}
