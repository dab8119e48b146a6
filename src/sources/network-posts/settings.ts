/**
 * Operator settings of the professional-network source. Logged out, the company page is the only
 * path and it shows a handful of recent posts. When the operator configures a signed-in browser
 * session (`NETWORK_POSTS_COOKIES`: a Cookie header value with at least `li_at` and `JSESSIONID`),
 * the adapter reads the signed-in company feed (voyager API) instead, with paging. The adapter only
 * learns whether a session is configured: the executor adds the cookies and the CSRF header to
 * requests for www.linkedin.com (src/fetch/credentials.ts), so they never sit in a step, a
 * checkpoint or a cursor.
 *
 * @example networkSettings({ NETWORK_POSTS_COOKIES: 'li_at=AQE; JSESSIONID="ajax:123"' }).signedIn // true
 */
export interface NetworkSettings {
  signedIn: boolean;
}

export function networkSettings(env: Record<string, string | undefined>): NetworkSettings {
  return { signedIn: Boolean(env.NETWORK_POSTS_COOKIES?.trim()) };
}
