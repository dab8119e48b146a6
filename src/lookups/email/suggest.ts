/**
 * Typo hints for the domains people mistype most (gmial.com → gmail.com, yahoo.con → yahoo.com).
 * A hint, not a verdict: it is given only one edit away from a big webmail domain, and never for a
 * domain that is itself a known provider.
 */
import { freeProviderDomains } from './lists.ts';

/** The largest webmail domains; typos of these are what mistyped sign-up addresses mostly are. */
const POPULAR = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'protonmail.com',
  'hotmail.co.uk',
  'yahoo.co.uk',
  'yandex.ru',
  'comcast.net',
  'verizon.net',
  'sbcglobal.net',
];
/** Short domains are one edit from many real ones (aol.com / aon.com); only TLD typos count for them. */
const SHORT = ['aol.com', 'live.com', 'msn.com', 'mail.ru', 'gmx.de', 'web.de', 'qq.com', '163.com', 'me.com', 'mac.com'];
const TLD_TYPOS: Record<string, string> = {
  con: 'com',
  cmo: 'com',
  ocm: 'com',
  vom: 'com',
  xom: 'com',
  comm: 'com',
  coom: 'com',
  cpm: 'com',
  nett: 'net',
  ney: 'net',
  nte: 'net',
};

/** Optimal-string-alignment distance, stopping early once it exceeds `max`. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    // One substitution, or one swap of neighbours.
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // One insertion or deletion.
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * A likely intended domain for an ASCII, lower-case domain, or null.
 * @example suggestDomain('gmial.com') // 'gmail.com'
 * @example suggestDomain('aon.com') // null (short domains: only TLD typos)
 */
export function suggestDomain(domain: string): string | null {
  if (freeProviderDomains().has(domain)) return null;
  const dot = domain.lastIndexOf('.');
  const tld = domain.slice(dot + 1);
  const fixedTld = TLD_TYPOS[tld];
  if (fixedTld) {
    const fixed = domain.slice(0, dot + 1) + fixedTld;
    if (POPULAR.includes(fixed) || SHORT.includes(fixed) || freeProviderDomains().has(fixed)) return fixed;
  }
  for (const p of POPULAR) if (withinOneEdit(domain, p)) return p;
  return null;
}

/**
 * The address with its domain replaced by the hint, or null.
 * @example didYouMean('jane', 'hotmial.com') // 'jane@hotmail.com'
 */
export function didYouMean(local: string, asciiDomain: string): string | null {
  const d = suggestDomain(asciiDomain);
  return d ? `${local}@${d}` : null;
}
