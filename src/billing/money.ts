/**
 * Money is kept and computed as integer **micros**: millionths of the account's currency unit
 * (1 USD = 1,000,000 micros; a 0.003 price is 3,000). Sums and products of integers below 2^53 are
 * exact, so a thousand 0.001 charges are exactly 1 and a balance never reads 99.88799999999995.
 * Conversion happens only at the edges: text an operator types (parseMicros), amounts the API shows
 * (shownAmount: rounded to the currency's precision, decision 26; shownParts for lines that must add
 * up to their rounded total; beside each, the exact `*_micros` integer), prices it shows (fromMicros: a
 * price is a fraction of a cent) and text the CLI prints (fixedMicros). A balance of up to 9 billion
 * currency units fits.
 *
 * @example
 *   parseMicros('0.003')              // 3000
 *   fromMicros(99_888_000)            // 99.888
 *   shownAmount(99_888_000, 'usd')    // 99.89
 *   fixedMicros(-1_500)               // '-0.001500'
 */

export const MICROS_PER_UNIT = 1_000_000;
const DIGITS = 6;

/** An amount in micros (an integer). The alias documents the unit where a plain number would not. */
export type Micros = number;

/**
 * A decimal amount in the currency unit as micros, rounded to the nearest micro. For numbers that
 * already are decimals of at most 6 places (100, 0.003, 25.5) the result is exact.
 * @example toMicros(0.003) // 3000
 */
export function toMicros(amount: number): Micros {
  if (!Number.isFinite(amount)) throw new RangeError(`not an amount: ${amount}`);
  const m = Math.round(amount * MICROS_PER_UNIT);
  if (!Number.isSafeInteger(m)) throw new RangeError(`amount out of range: ${amount}`);
  return m === 0 ? 0 : m; // no -0
}

/**
 * Decimal text (`12`, `-0.5`, `0.003`) as micros, read digit by digit (never through a float);
 * null when it is not a plain decimal of at most 6 places.
 * @example parseMicros('99.888') // 99888000
 */
export function parseMicros(text: string): Micros | null {
  const m = /^([+-]?)(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return null;
  const v = Number(m[2]) * MICROS_PER_UNIT + Number((m[3] ?? '').padEnd(DIGITS, '0'));
  return m[1] === '-' && v !== 0 ? -v : v;
}

/**
 * Micros as a number in the currency unit, for the API's number fields: the double nearest to the
 * exact decimal, which JSON prints as that decimal (99888000 -> 99.888).
 * @example fromMicros(26_000) // 0.026
 */
export function fromMicros(m: Micros): number {
  return m / MICROS_PER_UNIT;
}

const digitsOf = new Map<string, number>();

/**
 * The currency's minor-unit digits (ISO 4217, as the runtime's Intl data has them: USD 2, JPY 0,
 * BHD 3); 2 for a code it does not know.
 * @example currencyDigits('jpy') // 0
 */
export function currencyDigits(currency: string): number {
  const code = currency.toUpperCase();
  let d = digitsOf.get(code);
  if (d === undefined) {
    try {
      d = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    digitsOf.set(code, d = Math.min(d, DIGITS));
  }
  return d;
}

/**
 * An amount (balance, invoice total, usage) as the API shows it: rounded on the integer micros to
 * the currency's precision, halves away from zero, so -0.005 USD reads -0.01 and 99.888 reads 99.89.
 * @example shownAmount(26_000, 'USD') // 0.03
 */
export function shownAmount(m: Micros, currency: string): number {
  return fromMicros(roundedMicros(m, currency));
}

/** One step of the currency's precision in micros (USD 10,000: a cent). */
const stepOf = (currency: string): Micros => 10 ** (DIGITS - currencyDigits(currency));

/**
 * Micros rounded to the currency's precision, halves away from zero (shownAmount before conversion).
 * @example roundedMicros(26_000, 'usd') // 30_000
 */
export function roundedMicros(m: Micros, currency: string): Micros {
  const step = stepOf(currency);
  const r = Math.floor((Math.abs(m) + step / 2) / step) * step;
  return m < 0 && r !== 0 ? -r : r;
}

/**
 * Parts of a total (invoice lines), each rounded to the currency's precision so that the rounded parts
 * add up exactly to the rounded total (`total`, by default the rounded sum): every part is rounded
 * down, and the steps still missing go to the parts that lost the most (largest remainder; the
 * earlier part on a tie). Rounding each part alone would show two 0.004 lines as 0.00 + 0.00 under a
 * total of 0.01. `total` must lie between the parts' sums rounded down and up (any rounding of their sum does).
 * @example shownParts([4_000, 6_000], 'usd') // [0, 10_000]: 0.00 + 0.01 = 0.01
 */
export function shownParts(parts: readonly Micros[], currency: string, total?: Micros): Micros[] {
  const step = stepOf(currency);
  const target = total ?? roundedMicros(parts.reduce((s, p) => s + p, 0), currency);
  const down = parts.map((p) => Math.floor(p / step) * step);
  let missing = Math.round((target - down.reduce((s, p) => s + p, 0)) / step);
  const order = parts.map((p, i) => ({ i, rest: p - down[i] })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; missing > 0 && k < order.length; k++, missing--) down[order[k].i] += step;
  return down.map((m) => (m === 0 ? 0 : m));
}

/**
 * Micros as fixed-point text with 6 decimals, computed on integers (the CLI's form).
 * @example fixedMicros(25_000_000) // '25.000000'
 */
export function fixedMicros(m: Micros): string {
  const abs = Math.abs(m);
  const units = Math.floor(abs / MICROS_PER_UNIT);
  const frac = String(abs - units * MICROS_PER_UNIT).padStart(DIGITS, '0');
  return `${m < 0 ? '-' : ''}${units}.${frac}`;
}
