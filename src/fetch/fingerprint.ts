/**
 * Fingerprints: which browser a session claims to be, on every layer. The header generator picks a
 * browser, version and OS; the handshake profile is derived from that User-Agent, so a Chrome UA
 * always travels on a Chrome ClientHello and HTTP/2 preface of the same major version (or the
 * nearest older one the impersonation library has), and a Firefox UA on Firefox's.
 */

/** What web requests look like: a mix of desktop browsers, one browser only, or Node itself (undici). */
export type FetchProfile = 'browser' | 'chrome' | 'firefox' | 'node';
export const FETCH_PROFILES: readonly FetchProfile[] = ['browser', 'chrome', 'firefox', 'node'];

export type BrowserFamily = 'chrome' | 'edge' | 'firefox';
export type FingerprintOs = 'windows' | 'macos' | 'linux';

export interface Fingerprint {
  browser: BrowserFamily;
  /** Major version named by the User-Agent. */
  version: number;
  os: FingerprintOs;
  /** The handshake profile (wreq-js name, e.g. `chrome_147`) that matches the User-Agent. */
  handshake: string;
}

/** Header-generator browsers per profile (`node` keeps the mix it always had). */
export function generatorBrowsers(profile: FetchProfile): BrowserFamily[] {
  if (profile === 'chrome') return ['chrome'];
  if (profile === 'firefox') return ['firefox'];
  return ['chrome', 'firefox', 'edge'];
}

/**
 * The browser a User-Agent names: family (Edge before Chrome: Edge's UA names both), major
 * version and OS. Undefined for a UA that is none of the three.
 *
 * @example
 *   browserOfUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) ... Chrome/147.0.0.0 Safari/537.36')
 *   // { browser: 'chrome', version: 147, os: 'windows' }
 */
export function browserOfUserAgent(ua: string): Omit<Fingerprint, 'handshake'> | undefined {
  const m = /\bEdg\/(\d+)/.exec(ua) ?? /\bFirefox\/(\d+)/.exec(ua) ?? /\bChrome\/(\d+)/.exec(ua);
  if (!m) return undefined;
  const browser: BrowserFamily = m[0].startsWith('Edg') ? 'edge' : m[0].startsWith('Firefox') ? 'firefox' : 'chrome';
  const os: FingerprintOs = /Windows/.test(ua) ? 'windows' : /Mac OS X|Macintosh/.test(ua) ? 'macos' : 'linux';
  return { browser, version: Number(m[1]), os };
}

/**
 * The handshake profile for a browser and version among `available` (names like `chrome_147`):
 * the same version, else the newest older one, else the oldest of the family.
 *
 * @example
 *   handshakeFor('chrome', 145, ['chrome_144', 'chrome_146']) // 'chrome_144'
 */
export function handshakeFor(browser: BrowserFamily, version: number, available: readonly string[]): string | undefined {
  const re = new RegExp(`^${browser}_(\\d+)$`);
  let best: [number, string] | undefined;
  let oldest: [number, string] | undefined;
  for (const name of available) {
    const m = re.exec(name);
    if (!m) continue;
    const v = Number(m[1]);
    if (v <= version && (!best || v > best[0])) best = [v, name];
    if (!oldest || v < oldest[0]) oldest = [v, name];
  }
  return (best ?? oldest)?.[1];
}

/**
 * The session's fingerprint from its generated headers, or undefined when the profile is `node` or
 * the UA names no supported browser (the request then goes out on undici, as before).
 *
 * @example
 *   fingerprintOf(session.headers, 'browser', wreqProfiles)?.handshake // 'chrome_147'
 */
export function fingerprintOf(headers: Readonly<Record<string, string>>, profile: FetchProfile, available: readonly string[]): Fingerprint | undefined {
  if (profile === 'node') return undefined;
  const b = browserOfUserAgent(headers['user-agent'] ?? '');
  if (!b) return undefined;
  const handshake = handshakeFor(b.browser, b.version, available);
  return handshake ? { ...b, handshake } : undefined;
}
