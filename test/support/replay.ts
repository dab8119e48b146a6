/**
 * HAR replay for end-to-end tests of real adapters: HAR entries built at test time from real
 * captures (never copied into the repository), a service whose executor replays them, and the
 * usage a finished request was billed.
 *
 * @example
 *   await withReplay([replayEntry(step, body, 'application/json')], async (h) => { await h.json('/x?query=a&async=false'); });
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness } from './harness.ts';
import { defaultRegistry } from '../../src/sources/registry.ts';
import { harEntry, type HarEntry } from '../../src/fetch/har.ts';
import type { QueryContext, Step, WebAdapter } from '../../src/sources/_kit/adapter.ts';
import type { Settings } from '../../src/config/settings.ts';

type H = Awaited<ReturnType<typeof startHarness>>;

/** One HAR entry answering `step` (method, URL and body as the adapter sends them) with `body`. */
export function replayEntry(step: Step, body: string, mimeType: string, status = 200): HarEntry {
  const reqType = step.headers?.['content-type'] ?? 'application/x-www-form-urlencoded';
  return harEntry(
    { url: step.url, method: step.method ?? 'GET', headers: step.body !== undefined ? { 'content-type': reqType } : {}, body: step.body },
    { status, url: step.url, headers: { 'content-type': `${mimeType}; charset=utf-8` }, setCookie: [], body, bytes: Buffer.byteLength(body), replayed: false },
    1, new Date(),
  );
}

/** The HAR entries of one query: every step the adapter asks for, answered by `answer`. */
export function recordQuery(a: WebAdapter<any, any>, c: QueryContext<any>, answer: (s: Step) => string, maxSteps = Infinity): HarEntry[] {
  const entries: HarEntry[] = [];
  const pending = a.plan(c);
  while (pending.length && entries.length < maxSteps) {
    const s = pending.shift()!;
    const body = answer(s);
    entries.push(replayEntry(s, body, 'application/json'));
    pending.push(...(a.parse(s, { status: 200, url: s.url, headers: {}, body }, c).next ?? []));
  }
  return entries;
}

/** Answers of the `/forum-comments` steps of the real 2016 thread 3hahrw: its thread page, its one
 *  real morechildren answer (stub cu5pg2h), an empty one for the other stubs, and "continue this
 *  thread" pages with the focused comment and no further replies. */
export function threadAnswers(thread: string, more: string): (s: Step) => string {
  const empty = JSON.stringify({ json: { errors: [], data: { things: [] } } });
  return (s) => {
    if (s.kind === 'thread') return thread;
    if (s.kind === 'more') return (s.state as any).stub.ids.join(',') === 'cu5pg2h' ? more : empty;
    return JSON.stringify([{ data: { children: [] } }, { data: { children: [{ kind: 't1', data: { id: (s.state as any).stub.parent } }] } }]);
  };
}

/**
 * Runs `fn` against a service (the default registry) whose executor replays `entries`. One attempt
 * per query unless `o.settings` says otherwise; `o.env` reaches the executor (e.g. `RETRIES`).
 */
export async function withReplay(entries: unknown[], fn: (h: H) => Promise<void>, o: { settings?: Partial<Settings>; env?: Record<string, string> } = {}): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-replay-'));
  writeFileSync(join(dir, 'run.har'), JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [], entries } }));
  const h = await startHarness({ adapters: defaultRegistry(), env: { REPLAY_HAR: join(dir, 'run.har'), ...o.env }, settings: { maxAttempts: 1, ...o.settings } });
  try {
    await fn(h);
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `usage` the request history shows for a finished request. */
export async function usageOf(h: H, id: string): Promise<string> {
  const hist = (await h.json('/requests?type=finished')).body;
  return hist.find((x: any) => x.id === id).usage;
}
