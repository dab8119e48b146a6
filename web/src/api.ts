/**
 * The signed-in session: the API key lives in sessionStorage only (gone when the tab closes; never
 * in a URL, a cookie or a log), and every value the dashboard shows comes from the public API
 * through the same client users get (clients/typescript).
 */
import { TrawlClient } from '../../clients/typescript/src/client.ts';

const KEY = 'trawl.apiKey';
let client: TrawlClient | null = null;

export function signedIn(): TrawlClient | null {
  if (client) return client;
  const key = sessionStorage.getItem(KEY);
  client = key ? new TrawlClient({ apiKey: key, baseUrl: location.origin }) : null;
  return client;
}

/** Checks the key against the API before keeping it; a wrong key throws the API's 401. */
export async function signIn(key: string): Promise<void> {
  const c = new TrawlClient({ apiKey: key.trim(), baseUrl: location.origin });
  await c.balance();
  sessionStorage.setItem(KEY, key.trim());
  client = c;
}

export function signOut() {
  sessionStorage.removeItem(KEY);
  client = null;
}

export function api(): TrawlClient {
  const c = signedIn();
  if (!c) throw new Error('not signed in');
  return c;
}

/** The OpenAPI document, read once: the Run and Tasks forms are generated from it. */
let doc: Promise<OpenApi> | null = null;
export interface OpenApiParam { name: string; in: string; required?: boolean; description?: string; schema: Schema }
export interface Schema { type?: string; enum?: string[]; default?: unknown; minimum?: number; maximum?: number; items?: Schema; description?: string }
export interface OpenApiOp { operationId?: string; summary?: string; description?: string; tags?: string[]; parameters?: OpenApiParam[] }
export interface OpenApi { paths: Record<string, { get?: OpenApiOp }> }
export function openApi(): Promise<OpenApi> {
  doc ??= fetch('/openapi.json').then((r) => r.json() as Promise<OpenApi>);
  return doc;
}
