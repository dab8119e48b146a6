/**
 * A test-only source adapter (never served): its behaviour is written in the query itself, so HTTP,
 * engine and crash tests can drive every outcome through real endpoints.
 *
 *   n=3            three records
 *   empty          no record
 *   fail           a non-retryable layout_changed error
 *   flaky=2        a retryable network error on the first 2 attempts, then one record
 *   sleep=100      waits 100 ms first (combine with ';', e.g. "sleep=50;n=2")
 *   keys=a,b,a     records whose engine_id are a, b, a (dropDuplicates)
 *   phone=+1415    the records carry that phone (export escaping)
 *   dns=ENOTFOUND  the transport's error for a DNS lookup failing with that code (EAI_AGAIN: transient),
 *                  every attempt; attempts are counted in `attempts` under `${endpoint}|${query}`
 */
import type { LocalAdapter, SourceAdapter } from '../../src/sources/_kit/adapter.ts';
import { SourceError } from '../../src/sources/_kit/errors.ts';
import { dataEndpoints } from '../../src/contract/endpoints/index.ts';
import { registryOfAdapters } from '../../src/sources/registry.ts';
import { toNetworkError } from '../../src/fetch/transport.ts';

export const attempts = new Map<string, number>();

function opts(q: string): Record<string, string> {
  return Object.fromEntries(q.split(';').map((p) => { const [k, v = ''] = p.split('='); return [k.trim(), v.trim()]; }));
}

export function testAdapter(endpoint: string): LocalAdapter {
  return {
    kind: 'local', endpoint,
    checkQuery: (q) => (q.startsWith('bad') ? `query ${JSON.stringify(q)} is refused by the test adapter` : undefined),
    async lookup({ query }, { signal }) {
      const o = opts(query);
      if (o.sleep) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, Number(o.sleep));
          signal?.addEventListener('abort', () => { clearTimeout(t); reject(new SourceError('network', 'aborted')); }, { once: true });
        });
      }
      if (o.dns) {
        const key = `${endpoint}|${query}`;
        attempts.set(key, (attempts.get(key) ?? 0) + 1);
        throw toNetworkError(new TypeError('fetch failed', { cause: Object.assign(new Error(`getaddrinfo ${o.dns} maps.test`), { code: o.dns }) }), 'https://maps.test/');
      }
      if ('fail' in o) throw new SourceError('layout_changed', 'test: no expected data');
      if (o.flaky) {
        const key = `${endpoint}|${query}`;
        const n = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, n);
        if (n <= Number(o.flaky)) throw new SourceError('network', `test: flaky attempt ${n}`);
      }
      if ('empty' in o) return [];
      if (o.keys) return o.keys.split(',').map((k, i) => ({ engine_id: k, name: `place ${k}`, i }));
      const n = Number(o.n ?? 1);
      return Array.from({ length: n }, (_, i) => ({ name: `record ${i}`, rating: 4.5, i, nested: { a: [1, 2] }, ...(o.phone ? { phone: o.phone } : {}) }));
    },
  };
}

/** A registry where every data endpoint in `only` (default: all) is served by the test adapter,
 *  except the endpoints of `extra` adapters (e.g. the constructed paged source). */
export function testRegistry(only?: string[], extra: SourceAdapter[] = []) {
  const adapters: SourceAdapter[] = dataEndpoints.filter((e) => (!only || only.includes(e.path)) && !extra.some((x) => x.endpoint === e.path))
    .map((e) => testAdapter(e.path));
  return registryOfAdapters([...adapters, ...extra]);
}
