/**
 * A network error met through a proxy, as the user may read it. Transports describe a failed proxy in
 * their own words, with the operator's proxy address in them (undici: `connect ECONNREFUSED
 * 10.0.0.5:3128`, `getaddrinfo ENOTFOUND proxy.internal`; wreq: `ProxyConnect ... tunnel error ...`).
 * A query's error must name neither that address nor its credentials, and a proxy whose own name does
 * not resolve is that proxy's fault: asking again through another proxy helps, so it is never the
 * final "the name does not resolve" that a target's own missing name is. The raw text stays in
 * `detail` (logs only), with the password masked.
 */
import { SourceError } from '../sources/_kit/errors.ts';
import { redactProxy } from './proxy.ts';
import { isFinal, markFinal } from './retry.ts';

/** What a transport's text says went wrong, in the few words a user is told. */
const REASONS: Array<[RegExp, string]> = [
  [/ECONNREFUSED|connection refused/i, 'connection refused'],
  [/ENOTFOUND|ENODATA|EAI_AGAIN|dns error|getaddrinfo|name or service not known|failed to lookup/i, 'its name does not resolve'],
  [/ETIMEDOUT|timed? ?out|UND_ERR_CONNECT_TIMEOUT/i, 'timed out'],
  [/ECONNRESET|connection reset|socket hang up|UND_ERR_SOCKET/i, 'connection reset'],
  [/EHOSTUNREACH|ENETUNREACH|unreachable/i, 'unreachable'],
  [/\b407\b/, 'refused the credentials (407)'],
  [/auth/i, 'refused the credentials'],
  [/Proxy response \((\d{3})\)|tunnel|ProxyConnect|socks/i, 'refused the tunnel'],
];

/** Every spelling of the proxy's address and secret that a transport's text may carry. */
function secretsOf(proxyUrl: string): string[] {
  try {
    const u = new URL(proxyUrl);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    return [u.username && u.password ? `${u.username}:${u.password}` : '', decodeURIComponent(u.password), u.password, u.host, host]
      .filter((s) => s.length >= 3);
  } catch {
    return [];
  }
}

/** The whole cause chain's text: undici puts the reason in `cause`, wreq in the message. */
function chainText(e: Error): string {
  const parts: string[] = [];
  for (let c: unknown = e, depth = 0; c && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const x = c as NodeJS.ErrnoException;
    parts.push(`${x.code ?? ''} ${x.message ?? String(c)}`);
  }
  return parts.join(' | ');
}

function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('(proxy)');
  return out;
}

/**
 * `e` as the user may read it, for an attempt that went through `proxyUrl` to `targetHost`: the
 * proxy's failure as a retryable `network` error naming neither its address nor its credentials, any
 * other error with those taken out of its message. Errors that are not the network's pass unchanged.
 *
 * @example
 *   throughProxy(new SourceError('network', 'ECONNREFUSED fetching example.com: connect ECONNREFUSED 10.0.0.5:3128'), 'http://u:p@10.0.0.5:3128', 'example.com')
 *   // SourceError('network', 'the proxy could not be used fetching example.com: connection refused'), detail has the address
 */
export function throughProxy(e: unknown, proxyUrl: string, targetHost: string): unknown {
  if (!(e instanceof SourceError) || e.type !== 'network') return e;
  const secrets = secretsOf(proxyUrl);
  const text = chainText(e);
  const named = secrets.some((s) => text.includes(s));
  const proxyWords = /ProxyConnect|tunnel|socks|proxy/i.test(text);
  // Through a proxy, undici connects only to the proxy: a connect-level failure is the proxy's.
  const connectLevel = /\bconnect E[A-Z]+|getaddrinfo|UND_ERR_CONNECT_TIMEOUT/.test(text);
  const detail = scrubPassword(`via ${redactProxy(proxyUrl)}: ${e.detail ?? text}`, proxyUrl);
  if (named || proxyWords || connectLevel) {
    const why = REASONS.find(([re]) => re.test(text))?.[1] ?? 'failed';
    return new SourceError('network', `the proxy could not be used fetching ${targetHost}: ${why}`, { detail });
  }
  const clean = new SourceError('network', scrub(e.message, secrets), { retryAfterMs: e.retryAfterMs, detail });
  return isFinal(e) ? markFinal(clean) : clean;
}

/** The log may name the proxy (its label does), never its password. */
function scrubPassword(text: string, proxyUrl: string): string {
  try {
    const u = new URL(proxyUrl);
    if (!u.password) return text;
    return [u.password, decodeURIComponent(u.password)].filter((p) => p.length > 0).reduce((t, p) => t.split(p).join('***'), text);
  } catch {
    return text;
  }
}
