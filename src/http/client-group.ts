/**
 * The client a connection is counted against: an IPv4 address as it is, an IPv6 address by its /64
 * (the prefix one host or one customer line is handed: counting each of its 2^64 addresses apart would
 * cap nothing), an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as its IPv4 address.
 *
 * @example clientGroup('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * @example clientGroup('::ffff:127.0.0.1') // '127.0.0.1'
 */
import { isIPv6 } from 'node:net';

export function clientGroup(address: string): string {
  const a = address.replace(/%.*$/, '');
  if (!isIPv6(a)) return a;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return mapped[1];
  const words = hextets(a);
  return `${words.slice(0, 4).map((w) => w.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit words of a valid IPv6 address (an embedded IPv4 tail counts as two). */
function hextets(a: string): number[] {
  const [head, tail = null] = a.split('::') as [string, string?];
  const part = (s: string | null) => (s ? s.split(':').flatMap((w) => (w.includes('.') ? v4Words(w) : [parseInt(w, 16)])) : []);
  const h = part(head);
  const t = tail === null ? [] : part(tail);
  return [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
}

const v4Words = (v4: string) => {
  const [a, b, c, d] = v4.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
};
