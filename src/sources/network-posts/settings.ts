/**
 * Operator settings of the professional-network source. Logged out, the company page is the only
 * path and it shows a handful of recent posts. With a signed-in browser session's cookies
 * (`NETWORK_POSTS_COOKIES`, at least `li_at` and `JSESSIONID`), the adapter reads the signed-in
 * company feed (voyager API) instead, with paging. The cookies go out only to www.linkedin.com.
 *
 * @example networkSettings({ NETWORK_POSTS_COOKIES: 'li_at=AQE; JSESSIONID="ajax:123"' }).csrf // 'ajax:123'
 */
export interface NetworkSettings {
  /** A `Cookie` header value for www.linkedin.com, or undefined (logged-out path). */
  cookies?: string;
  /** The `csrf-token` header voyager wants: the JSESSIONID cookie's value without quotes. */
  csrf?: string;
}

export function networkSettings(env: Record<string, string | undefined>): NetworkSettings {
  const cookies = env.NETWORK_POSTS_COOKIES?.trim() || undefined;
  if (!cookies) return {};
  const js = /(?:^|;\s*)JSESSIONID=("?)([^";]+)\1/.exec(cookies)?.[2];
  return { cookies, csrf: js };
}
