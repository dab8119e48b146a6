/**
 * One reverse call to an operator-run engine with undici `request`, bounded in time and size.
 * Failures are typed `SourceError('network')` so the caller can fall back to the offline record.
 */
import { request } from 'undici';
import { SourceError } from '../../../sources/_kit/errors.ts';
import { parseReverse, reverseUrl } from './formats.ts';
import { DEFAULT_ENGINE_TIMEOUT_MS, type GeocoderSettings } from './settings.ts';
import type { EngineAddress } from './address.ts';

/** A reverse answer is a few KB; anything far larger is not one. */
const MAX_BODY_BYTES = 1 << 20;

/**
 * Asks the engine for the address at a point. Resolves null when the engine answers but knows no
 * address there; rejects with `SourceError('network')` on timeout, connection failure, a non-2xx
 * status, an oversized or non-JSON body.
 *
 * @example
 *   const a = await engineReverse({ url: 'http://127.0.0.1:2322', kind: 'photon' }, 52.5163, 13.3777);
 *   a?.road; // 'Pariser Platz'
 */
export async function engineReverse(
  settings: GeocoderSettings,
  lat: number,
  lng: number,
  signal?: AbortSignal,
): Promise<EngineAddress | null> {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_ENGINE_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const url = reverseUrl(settings.kind, settings.url, lat, lng);
  const fail = (why: string, cause?: unknown): SourceError =>
    new SourceError('network', `geocoder ${settings.kind} at ${settings.url}: ${why}`, { cause });
  let text: string;
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'trawl (self-hosted reverse geocoding)' },
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      maxRedirections: 0,
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw fail(`status ${res.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.body.destroy();
        throw fail(`body larger than ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (e) {
    if (e instanceof SourceError) throw e;
    if (deadline.aborted) throw fail(`no answer within ${timeoutMs} ms`, e);
    throw fail(e instanceof Error ? e.message : String(e), e);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw fail('body is not JSON', e);
  }
  return parseReverse(settings.kind, body);
}
