/**
 * E-mail address syntax: RFC 5322 (with RFC 6532 UTF-8) through `email-addresses`, plus the rules a
 * deliverable address needs on top: a fully qualified domain, no domain literal, IDN as punycode,
 * RFC 5321 length limits.
 *
 * Most real addresses are plain dot-atoms; a strict regex for exactly that subset answers them
 * without the full parser (about ten times faster), and everything else goes to the parser.
 */
import { createRequire } from 'node:module';
import { domainToASCII } from 'node:url';

const require = createRequire(import.meta.url);
const addrs = require('email-addresses') as {
  parseOneAddress(opts: { input: string; rfc6532?: boolean }): { type: string; local: string; domain: string } | null;
};

export type SyntaxResult =
  | {
      ok: true;
      /** Local part as written (unquoted form for quoted local parts). */
      local: string;
      /** Domain, lower-cased, as written (may be Unicode). */
      domain: string;
      /** Domain in ASCII (punycode for IDN), lower-cased: what DNS and SMTP see. */
      asciiDomain: string;
      /** The address as sent in `RCPT TO:<…>`: quoted local part if needed, ASCII domain. */
      address: string;
      /** The local part is not ASCII: RCPT needs the server's SMTPUTF8 extension. */
      smtputf8: boolean;
    }
  | { ok: false; reason: string };

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
/** RFC 6531 adds every non-ASCII character to atext. */
const UATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\u0080-\\u{10FFFF}-]";
const DOT_ATOM = new RegExp(`^${UATEXT}+(?:\\.${UATEXT}+)*$`, 'u');
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** dot-atom local part @ LDH host name of at least two labels: a strict subset of RFC 5322 addr-spec. */
const FAST = new RegExp(`^(${ATEXT}+(?:\\.${ATEXT}+)*)@((?:${LABEL}\\.)+${LABEL})$`);
const ASCII_HOST = /^[a-z0-9.-]+$/;
const MAX_INPUT = 1000;

/** Checks an ASCII host name is a fully qualified DNS name; returns the problem or null. */
function fqdnProblem(host: string): string | null {
  if (host.length > 253) return 'domain is longer than 253 characters';
  const labels = host.split('.');
  if (labels.length < 2) return 'domain is not fully qualified (no dot)';
  for (const l of labels) {
    if (l.length === 0) return 'domain has an empty label';
    if (l.length > 63) return 'domain label longer than 63 characters';
    if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(l)) return `domain label "${l}" is not a valid host name label`;
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return 'domain ends in a numeric label (an IP address is not a mail domain)';
  return null;
}

function quoteLocal(local: string): string {
  return DOT_ATOM.test(local) ? local : `"${local.replace(/(["\\])/g, '\\$1')}"`;
}

/** IDN → ASCII answers, reused: real address lists repeat their domains. */
const asciiCache = new Map<string, string>();
function toAscii(domain: string): string {
  let a = asciiCache.get(domain);
  if (a === undefined) {
    a = domainToASCII(domain);
    if (asciiCache.size >= 10_000) asciiCache.clear();
    asciiCache.set(domain, a);
  }
  return a;
}

/** Builds the result; `plain` says the fast regex already proved an ASCII dot-atom and LDH labels. */
function finish(local: string, domainRaw: string, plain: boolean): SyntaxResult {
  if (domainRaw.startsWith('[')) return { ok: false, reason: 'domain literals ([address]) cannot be checked over SMTP' };
  const domain = domainRaw.toLowerCase();
  let ascii = domain;
  if (!plain && (!ASCII_HOST.test(domain) || domain.includes('xn--'))) {
    ascii = toAscii(domain);
    if (ascii === '') return { ok: false, reason: 'domain is not a valid (international) domain name' };
  } else if (plain && domain.includes('xn--')) {
    // Punycode labels must decode; domainToASCII refuses broken ones.
    if (toAscii(domain) === '') return { ok: false, reason: 'domain is not a valid (international) domain name' };
  }
  const problem = plain ? plainFqdnProblem(ascii) : fqdnProblem(ascii);
  if (problem) return { ok: false, reason: problem };
  const localBytes = plain ? local.length : Buffer.byteLength(local, 'utf8');
  if (localBytes === 0) return { ok: false, reason: 'local part is empty' };
  if (localBytes > 64) return { ok: false, reason: 'local part is longer than 64 octets' };
  const address = plain ? `${local}@${ascii}` : `${quoteLocal(local)}@${ascii}`;
  if ((plain ? address.length : Buffer.byteLength(address, 'utf8')) > 254) {
    return { ok: false, reason: 'address is longer than 254 octets' };
  }
  // eslint-disable-next-line no-control-regex
  const smtputf8 = !plain && /[^\x00-\x7f]/.test(local);
  return { ok: true, local, domain, asciiDomain: ascii, address, smtputf8 };
}

/** fqdnProblem for a host the fast regex matched: only the limits the regex cannot express. */
function plainFqdnProblem(host: string): string | null {
  if (host.length > 253) return 'domain is longer than 253 characters';
  const tld = host.slice(host.lastIndexOf('.') + 1);
  if (/^\d+$/.test(tld)) return 'domain ends in a numeric label (an IP address is not a mail domain)';
  return null;
}

/**
 * Parses one address. Accepts `Name <addr>` and surrounding spaces; refuses anything that cannot be
 * delivered to over SMTP, with the reason.
 * @example checkSyntax('Jane <jane.doe@Example.COM>') // { ok: true, address: 'jane.doe@example.com', ... }
 * @example checkSyntax('jane@localhost') // { ok: false, reason: 'domain is not fully qualified (no dot)' }
 */
export function checkSyntax(input: unknown): SyntaxResult {
  if (typeof input !== 'string') return { ok: false, reason: 'not a string' };
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'empty address' };
  if (text.length > MAX_INPUT) return { ok: false, reason: `longer than ${MAX_INPUT} characters` };
  const fast = FAST.exec(text);
  if (fast) {
    return finish(fast[1], fast[2], true);
  }
  if (!text.includes('@')) return { ok: false, reason: 'no @ sign' };
  const parsed = addrs.parseOneAddress({ input: text, rfc6532: true });
  if (!parsed || parsed.type !== 'mailbox') return { ok: false, reason: 'not an RFC 5322 address' };
  return finish(parsed.local, parsed.domain, false);
}

/**
 * The domain part of something that looks like an address, in ASCII, without a full parse; null when
 * there is none. For list checks on many addresses.
 * @example domainOf('a@Mailinator.com') // 'mailinator.com'
 */
export function domainOf(address: string): string | null {
  if (typeof address !== 'string') return null;
  const at = address.lastIndexOf('@');
  if (at < 0) return null;
  let d = address.slice(at + 1).trim().replace(/>$/, '').toLowerCase();
  if (d === '') return null;
  if (!ASCII_HOST.test(d)) {
    d = toAscii(d);
    if (d === '') return null;
  }
  return d;
}
