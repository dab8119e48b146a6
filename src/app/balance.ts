/**
 * `GET /profile/balance` (interface 2.9): the prepaid balance and the upcoming invoice of the current
 * calendar month (UTC), computed from the usage ledger. Usage is paid from the balance as it happens,
 * so the invoice shows it as applied balance; what the balance could not cover (credit used) is due.
 *
 * @example await balanceView(ctx, account) // { balance: 12.5, account_status: 'valid', upcoming_invoice: {...} }
 */
import type { Account } from '../store/contract.ts';
import type { AppContext } from './context.ts';
import { isPastDue } from './submit.ts';

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function billingPeriod(now: number): { start: number; end: number } {
  const d = new Date(now);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

export async function balanceView(ctx: AppContext, a: Account) {
  const { start, end } = billingPeriod(ctx.now());
  const usage = await ctx.store.usageForPeriod(a.id, start, end);
  const byProduct = new Map<string, { product_name: string; unit: string; quantity: number; amount: number; lines: { quantity: number; amount: number; currency: string; unit_price: string }[] }>();
  for (const u of usage) {
    const p = byProduct.get(u.product) ?? { product_name: u.product, unit: u.unit, quantity: 0, amount: 0, lines: [] };
    p.quantity += u.quantity;
    p.amount = round(p.amount + u.amount);
    p.lines.push({ quantity: u.quantity, amount: round(u.amount), currency: a.currency, unit_price: String(u.unitPrice) });
    byProduct.set(u.product, p);
  }
  const subtotal = round(usage.reduce((s, u) => s + u.amount, 0));
  const total = subtotal;
  const uncovered = a.balance < 0 ? Math.min(total, -a.balance) : 0;
  const applied = round(total - uncovered);
  return {
    balance: round(a.balance),
    account_status: isPastDue(a) ? 'past_due' : 'valid',
    upcoming_invoice: {
      amount_due: round(total - applied), applied_balance: applied, total, subtotal, total_discount: 0, currency: a.currency,
      period_start: Math.floor(start / 1000), period_end: Math.floor(end / 1000), collection_method: 'charge_automatically',
      subscription_id: `sub_${a.id}`, products_lines: [...byProduct.values()],
    },
    coupon: {},
    id: a.id,
  };
}
