/**
 * Operator credentials for sites whose richer path needs a signed-in session: a `Cookie` header the
 * operator copied from a browser, set in the environment. The executor adds them to requests for
 * that exact host over https, hop by hop (a redirect to another host carries none). They never
 * travel in a step, so they are never stored with a work item, written into a checkpoint or a
 * `next_page_cursor` (which users can decode), nor recorded to HAR (`cookie` and `csrf-token` are
 * redacted there). Adding a site is adding a row.
 *
 * @example
 *   const creds = credentialsFromEnv({ NETWORK_POSTS_COOKIES: 'li_at=AQE; JSESSIONID="ajax:1"' });
 *   credentialFor(creds, 'https://www.linkedin.com/voyager/api/x') // { cookie: 'li_at=AQE; JSESSIONID="ajax:1"', 'csrf-token': 'ajax:1' }
 */
export interface HostCredential {
  /** Exact host name the headers go to. */
  host: string;
  headers: Record<string, string>;
}

interface Row {
  env: string;
  host: string;
  headers(cookie: string): Record<string, string>;
}

const ROWS: Row[] = [
  // The professional network's web API wants its CSRF header: the JSESSIONID cookie's value, unquoted.
  {
    env: 'NETWORK_POSTS_COOKIES', host: 'www.linkedin.com',
    headers: (cookie) => {
      const js = /(?:^|;\s*)JSESSIONID=("?)([^";]+)\1/.exec(cookie)?.[2];
      return js ? { cookie, 'csrf-token': js } : { cookie };
    },
  },
  { env: 'SHORTVIDEO_COOKIES', host: 'www.tiktok.com', headers: (cookie) => ({ cookie }) },
];

/** The credentials the environment configures (none by default). */
export function credentialsFromEnv(env: Record<string, string | undefined>): HostCredential[] {
  const out: HostCredential[] = [];
  for (const r of ROWS) {
    const v = env[r.env]?.trim();
    if (!v) continue;
    if (/[\r\n]/.test(v)) throw new Error(`setting ${r.env}: a Cookie header value must be one line`);
    out.push({ host: r.host, headers: r.headers(v) });
  }
  return out;
}

/** The headers to add for a request to `url`, if any (https and the exact host only). */
export function credentialFor(list: readonly HostCredential[], url: string): Record<string, string> | undefined {
  if (!list.length || !url.startsWith('https://')) return undefined;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  return list.find((c) => c.host === host)?.headers;
}
