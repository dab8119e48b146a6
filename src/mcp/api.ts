/**
 * How an MCP tool reaches the API: one HTTP call with the caller's key, answered as status, headers
 * and text. In the service the calls go through the API's own server in process (`app.inject`: the
 * same authentication, rate limit, validation, metering and billing as any client's call); from
 * `trawl mcp` (stdio) they go over the network to TRAWL_URL.
 *
 * @example const api = fetchApi('http://127.0.0.1:8080', key); await api('GET', '/profile/balance')
 */
export interface ApiAnswer { status: number; headers: Record<string, string | undefined>; text: string }
export type ApiCall = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', target: string, body?: unknown) => Promise<ApiAnswer>;

/** Calls over HTTP (the stdio server): `base` is TRAWL_URL. */
export function fetchApi(base: string, key: string): ApiCall {
  const root = base.replace(/\/+$/, '');
  return async (method, target, body) => {
    const res = await fetch(`${root}${target}`, {
      method, headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  };
}

/** The interface's reason of a refused call (`{"error": true, "errorMessage": ...}`), else the text. */
export function reasonOf(a: ApiAnswer): string {
  try {
    const b = JSON.parse(a.text) as { errorMessage?: unknown };
    if (typeof b?.errorMessage === 'string') return b.errorMessage;
  } catch { /* not JSON */ }
  return `${a.status}: ${a.text.slice(0, 500)}`;
}
