/**
 * IP address parsing to bytes, with the lenient IPv4 spellings (decimal, octal, hex, fewer than four
 * parts) that `inet_aton` and browsers accept: an SSRF guard must read an address the way the
 * socket layer will, not the way a strict validator would.
 */

/** Parses one IPv4 part: decimal, `0x` hex or leading-zero octal (inet_aton rules). */
function parseV4Part(s: string): number | undefined {
  if (s === '') return undefined;
  let radix = 10;
  let digits = s;
  if (/^0x/i.test(s)) {
    radix = 16;
    digits = s.slice(2);
    if (digits === '') return 0; // "0x" alone is 0 for inet_aton
  } else if (s.length > 1 && s[0] === '0') {
    radix = 8;
    digits = s.slice(1);
  }
  const re = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!re.test(digits)) return undefined;
  const n = parseInt(digits, radix);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * IPv4 in any spelling `inet_aton` accepts (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`) → 4 bytes.
 *
 * @example
 *   parseIPv4('0x7f.1') // [127, 0, 0, 1]
 *   parseIPv4('example.com') // undefined
 */
export function parseIPv4(input: string): number[] | undefined {
  const s = input.endsWith('.') ? input.slice(0, -1) : input;
  const parts = s.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    const n = parseV4Part(p);
    if (n === undefined) return undefined;
    nums.push(n);
  }
  // All but the last part are single bytes; the last fills the remaining bytes.
  for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return undefined;
  const restBytes = 5 - nums.length;
  const last = nums[nums.length - 1];
  if (last >= 2 ** (8 * restBytes)) return undefined;
  const out = nums.slice(0, -1);
  for (let i = restBytes - 1; i >= 0; i--) out.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return out;
}

/**
 * IPv6 text (optionally in brackets, with a `%zone`, with an embedded dotted IPv4 tail) → 16 bytes.
 *
 * @example
 *   parseIPv6('::ffff:127.0.0.1') // [0,0,0,0,0,0,0,0,0,0,255,255,127,0,0,1]
 */
export function parseIPv6(input: string): number[] | undefined {
  let s = input;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return undefined;
  const lastColon = s.lastIndexOf(':');
  const lastGroup = s.slice(lastColon + 1);
  if (lastGroup.includes('.')) {
    // An embedded IPv4 tail must be a strict dotted quad; rewrite it as two hex groups.
    const parts = lastGroup.split('.');
    if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
    const [a, b, c, d] = parts.map(Number);
    s = `${s.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
      const v = parseInt(g, 16);
      out.push(v >> 8, v & 255);
    }
    return out;
  };
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !rest) return undefined;
  const have = head.length + rest.length;
  if (halves.length === 1) return have === 16 ? head : undefined;
  if (have > 14) return undefined; // '::' stands for at least one group
  return [...head, ...new Array(16 - have).fill(0), ...rest];
}

/** True when the first `bits` bits of `a` equal those of `prefix`. */
export function inPrefix(a: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((a[i / 8] & mask) !== (prefix[i / 8] & mask)) return false;
  }
  return true;
}

/** Parsed CIDR or single address. */
export interface Cidr {
  v: 4 | 6;
  bytes: number[];
  bits: number;
}

/**
 * `10.0.0.0/8`, `fd00::/8` or a single address → a matcher record; undefined when malformed.
 *
 * @example
 *   parseCidr('127.0.0.1') // { v: 4, bytes: [127,0,0,1], bits: 32 }
 */
export function parseCidr(text: string): Cidr | undefined {
  const [addr, len, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const v4 = /^[0-9.]+$/.test(addr) ? parseIPv4(addr) : undefined;
  const v6 = v4 ? undefined : parseIPv6(addr);
  const bytes = v4 ?? v6;
  if (!bytes) return undefined;
  const max = v4 ? 32 : 128;
  const bits = len === undefined ? max : /^\d+$/.test(len) ? Number(len) : NaN;
  if (!(bits >= 0 && bits <= max)) return undefined;
  return { v: v4 ? 4 : 6, bytes, bits };
}
