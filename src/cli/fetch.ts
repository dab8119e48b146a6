/**
 * `trawl fetch <url> [--profile browser|chrome|firefox|node] [--proxy URL] [--out FILE]`: the
 * operator's view of what a site answers us. One request through the same executor the sources
 * use (headers, handshake, cookies, redirects, SSRF guard with ALLOW_PRIVATE_TARGETS, limits),
 * with an empty detection table so a wall is reported with its page instead of thrown, then the
 * verdict of the real table (blocked, captcha, consent, rate_limited, not_found) on every hop.
 *
 * Prints one JSON object: status, final URL, headers, verdict, the profile (browser, version,
 * handshake, User-Agent) and proxy used, the hops, and where the body was written. Exit code 0: an
 * answer no rule calls a wall; 3: an answer that is one; 1: no answer (network, refused target);
 * 2: bad arguments.
 *
 * @example  npx trawl fetch https://www.example.com/ --profile firefox --out page.html
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSourceError } from '../sources/_kit/errors.ts';
import { detect } from '../fetch/detect.ts';
import type { FetchEvent } from '../fetch/events.ts';
import { Executor } from '../fetch/executor.ts';
import { FETCH_PROFILES, type FetchProfile } from '../fetch/fingerprint.ts';
import { redactProxy } from '../fetch/proxy.ts';
import { executorSettingsFromEnv } from '../fetch/settings.ts';

export interface FetchCommandOptions {
  profile?: string;
  proxy?: string;
  out?: string;
}

const EXT: Array<[RegExp, string]> = [[/json/, 'json'], [/html/, 'html'], [/xml/, 'xml'], [/javascript/, 'js'], [/text/, 'txt']];

/**
 * Runs the command; returns the exit code (the caller exits with it).
 *
 * @example  process.exitCode = await fetchCommand('https://example.com/', { profile: 'chrome' }, process.env);
 */
export async function fetchCommand(url: string | undefined, o: FetchCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const usage = `usage: trawl fetch <url> [--profile ${FETCH_PROFILES.join('|')}] [--proxy URL] [--out FILE]`;
  if (!url) return fail(usage);
  if (o.profile !== undefined && !FETCH_PROFILES.includes(o.profile as FetchProfile)) return fail(`--profile must be one of ${FETCH_PROFILES.join(', ')}\n${usage}`);
  let settings;
  try {
    settings = executorSettingsFromEnv({ ...env, ...(o.proxy ? { PROXY_URLS: o.proxy } : {}), ...(o.profile ? { FETCH_PROFILE: o.profile } : {}) });
  } catch (e) {
    return fail((e as Error).message.replace(/^setting PROXY_URLS/, '--proxy'));
  }
  if (settings.replayHar) return fail('REPLAY_HAR is set: unset it to fetch from the network');
  const hops: Array<{ status: number; host: string; ms: number; proxy?: string }> = [];
  const ex = new Executor({ ...settings, retries: 0 }, {
    rules: [],
    onEvent: (e: FetchEvent) => {
      if (e.type === 'request') hops.push({ status: e.status, host: e.host, ms: Math.round(e.ms), ...(e.proxy ? { proxy: e.proxy } : {}) });
    },
  });
  const session = ex.sessionFor('trawl-fetch');
  const fp = session.fingerprint;
  const profile = {
    setting: settings.fetchProfile,
    transport: fp ? 'browser-true (wreq-js)' : 'undici',
    ...(fp ? { browser: fp.browser, version: fp.version, os: fp.os, handshake: fp.handshake } : {}),
    user_agent: session.headers['user-agent'],
  };
  const proxy = settings.proxyUrls[0] ? redactProxy(settings.proxyUrls[0]) : null;
  const t0 = performance.now();
  try {
    const res = await ex.run({ kind: 'fetch', url, expect: 'html', userUrl: true }, session);
    const verdict = detect({ status: res.status, url: res.url, headers: res.headers, body: res.body }) ?? null;
    const ext = EXT.find(([re]) => re.test(res.headers['content-type'] ?? ''))?.[1] ?? 'bin';
    const file = o.out ?? join(tmpdir(), `trawl-fetch-${Date.now()}.${ext}`);
    writeFileSync(file, res.body);
    print({
      url, final_url: res.url, status: res.status, verdict, profile, proxy, headers: res.headers, hops,
      body_file: file, body_bytes: Buffer.byteLength(res.body), ms: Math.round(performance.now() - t0),
    });
    return verdict ? 3 : 0;
  } catch (e) {
    const error = isSourceError(e) ? { type: e.type, message: e.message } : { type: 'error', message: (e as Error).message ?? String(e) };
    print({ url, error, profile, proxy, hops, ms: Math.round(performance.now() - t0) });
    return 1;
  } finally {
    await ex.close();
  }
}

function print(v: unknown): void {
  process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
}

function fail(message: string): number {
  process.stderr.write(`trawl fetch: ${message}\n`);
  return 2;
}
