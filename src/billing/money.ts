/**
 * Money is kept and computed as integer **micros**: millionths of the account's currency unit
 * (1 USD = 1,000,000 micros; a 0.003 price is 3,000). Sums and products of integers below 2^53 are
 * exact, so a thousand 0.001 charges are exactly 1 and a balance never reads 99.88799999999995.
 * Conversion happens only at the edges: text an operator types (parseMicros), numbers the API shows
 * (fromMicros) and text the CLI prints (fixedMicros). A balance of up to 9 billion currency units fits.
 *
 * @example
 *   parseMicros('0.003')   // 3000
 *   fromMicros(99_888_000) // 99.888
 *   fixedMicros(-1_500)    // '-0.001500'
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
