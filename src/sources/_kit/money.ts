/**
 * Money texts as sites write them → numbers in the currency unit. Thousands separators (`,` `.`
 * thin or plain space) and a decimal point or comma are told apart by position; a text whose reading
 * is ambiguous gives null rather than a guess.
 *
 * @example
 *   amountOf('$1,234')        // 1234
 *   amountOf('€ 1.234,50')    // 1234.5
 *   amountOf('US$339.86')     // 339.86
 *   amountOf('$2,450/mo')     // 2450
 *   amountOf('Free')          // null
 */
export function amountOf(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = /\d[\d.,\u00a0\u202f\u2009 ']*/.exec(text);
  if (!m) return null;
  const raw = m[0].replace(/[\u00a0\u202f\u2009 ']+$/, '').replace(/[\u00a0\u202f\u2009 ']/g, ',');
  // "1,234" or "1.234" alone: a thousands separator in most sites' locales (`$1,234`), yet "1.234"
  // reads as a decimal in others. Comma: thousands; dot: ambiguous.
  if (/^\d{1,3}\.\d{3}$/.test(raw)) return null;
  // "1,234,567" / "1.234.567": separators only.
  if (/^\d{1,3}([,.]\d{3})+$/.test(raw) && (raw.includes(',') ? !raw.includes('.') : raw.split('.').length > 2)) return Number(raw.replace(/[,.]/g, ''));
  // "1,234.50" (decimal point last) or "1.234,50" (decimal comma last).
  const lastDot = raw.lastIndexOf('.');
  const lastComma = raw.lastIndexOf(',');
  if (lastDot > lastComma && /^\d{1,3}(,\d{3})*\.\d+$|^\d+\.\d+$/.test(raw)) return Number(raw.replace(/,/g, ''));
  if (lastComma > lastDot && /^\d{1,3}(\.\d{3})*,\d{1,2}$|^\d+,\d{1,2}$/.test(raw)) return Number(raw.replace(/\./g, '').replace(',', '.'));
  if (/^\d+$/.test(raw)) return Number(raw);
  return null;
}

/** ISO 4217 code of a currency sign or code at the start or end of a money text; null when unknown. */
export function currencyOf(text: string | null | undefined): string | null {
  if (!text) return null;
  const code = /\b([A-Z]{3})\b/.exec(text.replace(/US\$/, 'USD'));
  if (code) return code[1]!;
  for (const [sign, iso] of SIGNS) if (text.includes(sign)) return iso;
  return null;
}

const SIGNS: Array<[string, string]> = [['€', 'EUR'], ['£', 'GBP'], ['¥', 'JPY'], ['₹', 'INR'], ['₺', 'TRY'], ['₩', 'KRW'], ['₽', 'RUB'], ['zł', 'PLN'], ['R$', 'BRL'], ['A$', 'AUD'], ['C$', 'CAD'], ['$', 'USD']];

/**
 * An amount rounded to its currency's minor unit (2 for USD, 0 for JPY), as a page shows it: sites
 * send unrounded floats (Booking.com's 339.859938482295 for "US$339.86"). Unknown currency: 2 places.
 * @example toMinorUnit(339.859938482295, 'USD') // 339.86
 */
export function toMinorUnit(amount: number | null, currency: string | null): number | null {
  if (amount === null || !Number.isFinite(amount)) return amount;
  let digits = 2;
  try {
    if (currency) digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    /* not an ISO 4217 code: keep 2 */
  }
  const f = 10 ** digits;
  return Math.round(amount * f) / f;
}
