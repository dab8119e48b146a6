/**
 * Operator settings of the short-video source. The comment list answers unsigned anonymous calls
 * with an empty body more often than not; a browser session's cookies (`msToken`, `ttwid`,
 * `tt_chain_token`, ...) make it answer. They are read once from the environment and go out only
 * to the site's own host.
 *
 * @example shortvideoSettings({ SHORTVIDEO_COOKIES: 'msToken=abc; ttwid=1%7Cxyz' }).msToken // 'abc'
 */
export interface ShortvideoSettings {
  /** A `Cookie` header value for www.tiktok.com, or undefined. */
  cookies?: string;
  /** The `msToken` cookie's value, repeated as a query parameter as the web app does. */
  msToken?: string;
}

export function shortvideoSettings(env: Record<string, string | undefined>): ShortvideoSettings {
  const cookies = env.SHORTVIDEO_COOKIES?.trim() || undefined;
  const msToken = cookies ? /(?:^|;\s*)msToken=([^;]+)/.exec(cookies)?.[1] : undefined;
  return { cookies, msToken };
}
