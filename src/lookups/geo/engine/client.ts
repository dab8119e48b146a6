/**
 * Calls to an operator-run engine with undici `request` (reverse and search), bounded in time and
 * size, through the SSRF guard. Failures are typed `SourceError('network')` (a guard refusal
 * `forbidden_target`) so the caller can fall back to the offline record.
 */
import { request, type Agent } from 'undici';
import { SourceError, isSourceError } from '../../../sources/_kit/errors.ts';
import { guardedAgent, type GuardOptions } from '../../../fetch/ssrf.ts';
import { parseReverse, parseSearch, reverseUrl, searchUrl, type EngineHit } from './formats.ts';
import { DEFAULT_ENGINE_TIMEOUT_MS, type GeocoderSettings } from './settings.ts';
import type { EngineAddress } from './address.ts';

/** A reverse answer is a few KB; anything far larger is not one. */
const MAX_BODY_BYTES = 1 << 20;

/**
 * Asks the engine for the address at a point. Resolves null when the engine answers but knows no
 * address there; rejects with `SourceError('network')` on timeout, connection failure, a non-2xx
 * status, an oversized or non-JSON body, and `SourceError('forbidden_target')` for an address the
 * SSRF guard refuses.
 *
 * @example
 *   const a = await engineReverse({ url: 'http://127.0.0.1:2322', kind: 'photon', guard: { allow: ['127.0.0.1'] } }, 52.5163, 13.3777);
 *   a?.road; // 'Pariser Platz'
 */
export async function engineReverse(
  settings: GeocoderSettings,
  lat: number,
  lng: number,
  signal?: AbortSignal,
): Promise<EngineAddress | null> {
  return parseReverse(settings.kind, await engineGet(settings, reverseUrl(settings.kind, settings.url, lat, lng), signal));
}

/**
 * Asks the engine where an address or place is (its search call): the best match, or null when it
 * finds nothing. Fails as `engineReverse` does.
 *
 * @example
 *   const hit = await engineSearch({ url: 'http://127.0.0.1:8080', kind: 'nominatim' }, '51 West 52nd Street, New York');
 *   hit?.lat; // 40.7623
 */
export async function engineSearch(settings: GeocoderSettings, text: string, signal?: AbortSignal): Promise<EngineHit | null> {
  return parseSearch(settings.kind, await engineGet(settings, searchUrl(settings.kind, settings.url, text), signal));
}

/** One agent per guard setting: connections to the engine are kept alive between lookups. */
const agents = new Map<string, Agent>();
function agentFor(guard: GuardOptions = {}): Agent {
  const key = JSON.stringify([guard.allowPrivate === true, guard.allow ?? []]);
  let a = agents.get(key);
  if (!a) agents.set(key, (a = guardedAgent(guard)));
  return a;
}

/** GET of an engine URL through the SSRF guard, bounded in time and size; the decoded JSON body. */
async function engineGet(settings: GeocoderSettings, url: string, signal?: AbortSignal): Promise<unknown> {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_ENGINE_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  // The user reads the message (a query's error, a monitor run's reason): what went wrong, never where
  // the operator's geocoder lives (issue 39); the address and the raw cause go to the log as `detail`.
  const fail = (why: string, cause?: unknown, raw?: string): SourceError =>
    new SourceError('network', `the geocoder (${settings.kind}) ${why}`, { cause, detail: `geocoder ${settings.kind} at ${settings.url}: ${raw ?? why}` });
  let text: string;
  try {
    const res = await request(url, {
      method: 'GET',
      dispatcher: agentFor(settings.guard),
      headers: { accept: 'application/json', 'user-agent': 'trawl (self-hosted geocoding)' },
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      maxRedirections: 0,
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw fail(`answered status ${res.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.body.destroy();
        throw fail(`answered a body larger than ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (e) {
    if (e instanceof SourceError) throw e;
    const refused = guardRefusal(e);
    if (refused) throw refused;
    if (deadline.aborted) throw fail(`gave no answer within ${timeoutMs} ms`, e);
    throw fail('could not be reached', e, e instanceof Error ? e.message : String(e));
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw fail('answered a body that is not JSON', e);
  }
}

/** The guard's refusal, wherever undici wrapped it. */
function guardRefusal(e: unknown): SourceError | null {
  for (let c: unknown = e, depth = 0; c && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    if (isSourceError(c) && c.type === 'forbidden_target') return c;
  }
  return null;
}

/**
 * For a `.catch` on an engine call: the offline answer stands in for an engine that failed (down,
 * slow, a bad body), but an engine the SSRF guard refused fails the query with the setting to change,
 * so a misconfigured deployment is not silently answered at a coarser level.
 */
export function unlessRefused(settings: GeocoderSettings): (e: unknown) => null {
  return (e) => {
    if (isSourceError(e) && e.type === 'forbidden_target') {
      // The operator's setting is named, not its value: the host and port stay in the log (`detail`).
      throw new SourceError('forbidden_target', 'the configured geocoder (GEOCODER_URL) is not an allowed target; the operator allows it with ALLOW_PRIVATE_TARGETS (CIDRs and host names, docs/operations.md)',
        { detail: `GEOCODER_URL ${settings.url}: ${e.message}` });
    }
    return null;
  };
}
