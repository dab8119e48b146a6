/**
 * Detection of block pages, captchas, consent walls and throttling, as a table of rules: adding a
 * site is adding a row. The first matching rule wins, so specific rules (a 403 that is really a
 * captcha) come before generic ones (any 403).
 */
import type { SourceErrorType } from '../sources/_kit/errors.ts';

/** What detection sees of one response (or one redirect hop). */
export interface Observed {
  status: number;
  /** URL of this response. */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Decoded body text ('' for redirects). */
  body: string;
  /** Location of a 3xx, resolved against `url`. */
  location?: string;
}

export interface DetectRule {
  name: string;
  type: Exclude<SourceErrorType, 'layout_changed' | 'invalid_query' | 'forbidden_target' | 'misconfigured'>;
  /** Any of these statuses (omit: any status). */
  status?: number[];
  /** Tested against the response URL. */
  url?: RegExp;
  /** Tested against the redirect target of a 3xx. */
  location?: RegExp;
  /** Tested against the first `scanChars` characters of the body. */
  body?: RegExp;
  /** Only when the content-type matches (body rules are meant for HTML pages, not JSON data). */
  contentType?: RegExp;
  /** Only bodies shorter than this (block pages are small; a full page may mention 'recaptcha'). */
  maxBodyLength?: number;
  /** A header that must be present (lower-case name), optionally matching a pattern. */
  header?: { name: string; value?: RegExp };
  /** A soft block (the site degrades rather than refuses): pacing backs off and the identity's
   *  score grows, but the proxy is not benched. */
  soft?: boolean;
}

export interface Detection {
  type: DetectRule['type'];
  rule: string;
  soft?: boolean;
}

const HTML = /html|text\/plain|^$/i;
const GOOGLE = String.raw`(?:[a-z0-9-]+\.)*google(?:\.[a-z]{2,3}){1,2}`;

/**
 * The rules, most specific first. Sources: the pages the sites serve when they refuse a client
 * (Google /sorry/ interstitial, consent.google.com, Cloudflare and Akamai block pages).
 */
export const RULES: DetectRule[] = [
  // Captcha interstitials.
  { name: 'google-sorry-url', type: 'captcha', url: new RegExp(String.raw`^https?://${GOOGLE}/sorry/`, 'i') },
  { name: 'google-sorry-redirect', type: 'captcha', location: new RegExp(String.raw`^https?://${GOOGLE}/sorry/`, 'i') },
  { name: 'unusual-traffic', type: 'captcha', body: /unusual traffic from your computer network|our systems have detected unusual traffic/i, contentType: HTML, maxBodyLength: 300_000 },
  // Many ordinary sites embed reCAPTCHA in a contact form: only a refusal status makes it a wall.
  { name: 'recaptcha-page', type: 'captcha', status: [403, 429, 503], body: /g-recaptcha|www\.google\.com\/recaptcha\/api|recaptcha\/api\.js/i, contentType: HTML, maxBodyLength: 150_000 },
  { name: 'hcaptcha-page', type: 'captcha', status: [403, 429, 503], body: /hcaptcha\.com\/1\/api\.js|class="h-captcha"/i, contentType: HTML, maxBodyLength: 150_000 },
  { name: 'cloudflare-challenge', type: 'captcha', status: [403, 503], body: /challenges\.cloudflare\.com|cf-turnstile|cf_chl_opt|Just a moment\.\.\./i, contentType: HTML },
  { name: 'datadome', type: 'captcha', status: [403], body: /geo\.captcha-delivery\.com|ct\.captcha-delivery\.com/i, contentType: HTML },
  { name: 'perimeterx', type: 'captcha', status: [403, 429], body: /px-captcha|captcha\.px-cdn\.net|_pxAppId/i, contentType: HTML }, // Zillow's bot wall
  // A redirect to the site's own captcha page (`/captcha`, `/captcha/`, `/captcha?...`).
  { name: 'captcha-redirect', type: 'captcha', location: /^https?:\/\/[^/]+\/(?:[^?#]*\/)?captcha(?:[/?#.]|$)/i },
  { name: 'aws-waf-challenge', type: 'captcha', status: [202, 403, 405], body: /awswaf\.com|AwsWafIntegration/i, contentType: HTML }, // Booking.com's JS challenge

  // Consent walls.
  { name: 'google-consent-url', type: 'consent', url: /^https?:\/\/consent\.(?:google|youtube)\.[a-z.]+\//i },
  { name: 'google-consent-redirect', type: 'consent', location: /^https?:\/\/consent\.(?:google|youtube)\.[a-z.]+\//i },
  { name: 'google-before-you-continue', type: 'consent', url: new RegExp(String.raw`^https?://(?:${GOOGLE}|(?:[a-z0-9-]+\.)*youtube\.com)/`, 'i'), body: /<title>Before you continue|Before you continue to (?:Google|YouTube)/i, contentType: HTML, maxBodyLength: 600_000 },

  // Throttling.
  { name: 'http-429', type: 'rate_limited', status: [429] },
  { name: '503-retry-after', type: 'rate_limited', status: [503], header: { name: 'retry-after' } },
  // An HTML page with nothing in it where content belongs: a soft block, never an answer.
  { name: 'empty-page', type: 'rate_limited', status: [200], body: /^\s*$/, contentType: /text\/html/i, soft: true },
  { name: '503-throttle-page', type: 'rate_limited', status: [503], body: /rate limit|too many requests|slow down|throttl/i, contentType: HTML, maxBodyLength: 100_000 },

  // Blocks.
  { name: 'cloudflare-block', type: 'blocked', status: [403], body: /Attention Required! \| Cloudflare|cf-error-details|Sorry, you have been blocked/i, contentType: HTML },
  { name: 'akamai-block', type: 'blocked', status: [403], body: /<title>Access Denied<\/title>|Reference&#32;&#35;|errors\.edgesuite\.net/i, contentType: HTML },
  { name: 'http-403', type: 'blocked', status: [403] },
  { name: 'http-451', type: 'blocked', status: [451] },

  // Missing.
  { name: 'http-404', type: 'not_found', status: [404, 410] },

  // Anything else the server fails with: transient, retried as a network error.
  { name: 'http-5xx', type: 'network', status: [500, 502, 503, 504, 520, 521, 522, 523, 524] },
];

function matches(rule: DetectRule, o: Observed, ct: string): boolean {
  if (rule.status && !rule.status.includes(o.status)) return false;
  if (rule.url && !rule.url.test(o.url)) return false;
  if (rule.location && !(o.location && rule.location.test(o.location))) return false;
  if (rule.header) {
    const v = o.headers[rule.header.name];
    if (v === undefined || (rule.header.value && !rule.header.value.test(v))) return false;
  }
  if (rule.body) {
    if (rule.contentType && !rule.contentType.test(ct)) return false;
    if (rule.maxBodyLength !== undefined && o.body.length > rule.maxBodyLength) return false;
    if (!rule.body.test(o.body)) return false;
  }
  return true;
}

/**
 * The first rule that matches the response, or undefined when it looks like content.
 *
 * @example
 *   detect({ status: 302, url, headers: {}, body: '', location: 'https://consent.google.com/ml?continue=...' })
 *   // { type: 'consent', rule: 'google-consent-redirect' }
 */
export function detect(o: Observed, rules: DetectRule[] = RULES): Detection | undefined {
  const ct = o.headers['content-type'] ?? '';
  for (const rule of rules) if (matches(rule, o, ct)) return rule.soft ? { type: rule.type, rule: rule.name, soft: true } : { type: rule.type, rule: rule.name };
  return undefined;
}
