/**
 * `trawl monitors create|list|show|runs|changes|pause|resume|delete` (issue 29; docs/monitors.md), on the
 * TypeScript client's calls like every client command.
 *
 *   trawl monitors create <endpoint> [queries... | --file F] (--every 1d | --cron "0 9 * * 1" [--tz Europe/Athens]) [--name N] [--webhook URL]
 *                         [--identity a,b --fields x,y] [--<param> value ...]
 *   trawl monitors changes <id> [--kind changed,new] [--since 2026-11-01] [--json]
 */
import type { TrawlClient } from '../../../clients/typescript/src/client.ts';
import { UsageError } from './args.ts';
import { table, when } from './output.ts';

type Opts = Record<string, string | boolean>;

/** `90s`, `15m`, `6h`, `1d`, `2w` or plain seconds. */
export function secondsOf(text: string): number {
  const m = /^(\d+)\s*([smhdw]?)$/.exec(text.trim());
  if (!m) throw new UsageError(`--every takes a duration such as 1d, 6h, 30m or 3600 (seconds), got ${JSON.stringify(text)}`);
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 }[m[2] as '' | 's']!;
}

const at = (s: number | null | undefined) => when(s, true);
const show = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

async function json(client: TrawlClient, method: string, path: string, o: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<any> {
  const res = await client.call(method, path, o);
  const text = await res.text();
  try { return JSON.parse(text); } catch { return text; }
}

/** A monitor as `GET /monitors` lists it: what the list prints of it. */
interface ListedMonitor { id: string; name?: string | null; endpoint: string; status: string; runs: number; last_run?: number | null; next_run?: number | null; paused_reason?: string | null }

/**
 * The list's table; a monitor the service paused (its account could not pay) says so in its status,
 * and its reason, which says what to do, follows the table: a paused row alone reads like the user's pause.
 *
 * @example monitorList([{ id: 'm1', endpoint: '/maps/reviews', status: 'paused', runs: 3, paused_reason: 'its account cannot pay ...' }])
 */
export function monitorList(monitors: ListedMonitor[]): string {
  const rows = monitors.map((m) => [m.id, m.name ?? '', m.endpoint, m.paused_reason ? `${m.status} (service)` : m.status, m.runs, at(m.last_run), at(m.next_run)]);
  const why = monitors.filter((m) => m.paused_reason).map((m) => `${m.id} paused by the service: ${m.paused_reason}\n`);
  return table([['id', 'name', 'endpoint', 'status', 'runs', 'last run (UTC)', 'next run (UTC)'], ...rows]) + (why.length ? `\n${why.join('')}` : '');
}

/** The options of `trawl monitors`; every other `--name value` is a parameter of the monitored endpoint. */
export const MONITOR_OPTIONS = { file: 'string', every: 'string', cron: 'string', tz: 'string', name: 'string', webhook: 'string', kind: 'string', since: 'string', identity: 'string', fields: 'string' } as const;

export async function monitorsCommand(client: TrawlClient, args: string[], o: Opts, params: Record<string, string | string[]>, queries: (positionals: string[]) => string[]): Promise<number> {
  const [sub, ...rest] = args;
  const out = (s: string) => process.stdout.write(s);
  const print = (v: unknown) => out(`${JSON.stringify(v, null, 2)}\n`);
  const id = () => rest[0] ?? (() => { throw new UsageError(`trawl monitors ${sub} needs a monitor id`); })();
  switch (sub) {
    case 'create': {
      const [endpoint, ...qs] = rest;
      if (!endpoint?.startsWith('/')) throw new UsageError('trawl monitors create needs an endpoint first, e.g. /maps/search');
      if (!o.every === !o.cron) throw new UsageError('give the schedule with --every (1d, 6h, ...) or --cron "0 9 * * 1" [--tz Zone]');
      const schedule = o.every ? { every_s: secondsOf(String(o.every)) } : { cron: String(o.cron), time_zone: (o.tz as string | undefined) ?? 'UTC' };
      const list = (v: unknown) => (v === undefined ? undefined : String(v).split(',').map((x) => x.trim()).filter(Boolean));
      const compare = o.identity || o.fields ? { identity: list(o.identity), fields: list(o.fields) } : undefined;
      const m = await json(client, 'POST', '/monitors', { body: { endpoint, queries: queries(qs), schedule, params, compare, name: o.name, webhook: o.webhook } });
      if (o.json) print(m); else out(`monitor ${m.id} created; first run now, then ${o.every ? `every ${o.every}` : `at "${o.cron}" ${schedule.time_zone ?? ''}`}\n`);
      return 0;
    }
    case 'list': {
      const { monitors } = await json(client, 'GET', '/monitors', { query: { pageSize: 100 } });
      if (o.json) { print(monitors); return 0; }
      if (!monitors.length) { out('no monitors\n'); return 0; }
      out(monitorList(monitors));
      return 0;
    }
    case 'show': print(await json(client, 'GET', `/monitors/${encodeURIComponent(id())}`)); return 0;
    case 'runs': {
      const { runs } = await json(client, 'GET', `/monitors/${encodeURIComponent(id())}/runs`, { query: { pageSize: 50 } });
      if (o.json) { print(runs); return 0; }
      if (!runs.length) { out('no runs yet\n'); return 0; }
      out(table([['due (UTC)', 'status', 'new', 'gone', 'changed', 'new reviews', 'removed', 'records', 'request', 'reason'],
        ...runs.map((r: any) => [at(r.due), r.baseline && r.status === 'done' ? 'baseline' : r.status, r.counts.new, r.counts.gone, r.counts.changed, r.counts.new_reviews, r.counts.removed ?? 0, r.counts.records, r.request_id, r.reason ?? ''])]));
      return 0;
    }
    case 'changes': {
      const query: Record<string, unknown> = { pageSize: 1000, kind: o.kind };
      if (o.since) {
        const t = Date.parse(String(o.since));
        if (Number.isNaN(t)) throw new UsageError(`--since takes a date such as 2026-11-01, got ${JSON.stringify(o.since)}`);
        query.from = Math.floor(t / 1000);
      }
      const all: any[] = [];
      for (let cursor: string | null = null; ;) {
        const page: any = await json(client, 'GET', `/monitors/${encodeURIComponent(id())}/changes`, { query: { ...query, cursor: cursor ?? undefined } });
        all.push(...page.changes);
        if (!page.has_more) break;
        cursor = page.next_cursor;
      }
      if (o.json) { print(all); return 0; }
      if (!all.length) { out('no changes\n'); return 0; }
      out(table([['at (UTC)', 'kind', 'record', 'field', 'before', 'after'],
        ...all.map((c: any) => [at(c.at), c.kind, c.record?.name ? `${c.identity} (${c.record.name})` : c.identity, c.field ?? '', show(c.before).slice(0, 40), show(c.after).slice(0, 40)])]));
      return 0;
    }
    case 'pause': case 'resume': {
      const m = await json(client, 'PATCH', `/monitors/${encodeURIComponent(id())}`, { body: { status: sub === 'pause' ? 'paused' : 'active' } });
      out(`monitor ${m.id} ${m.status}${m.next_run ? `; next run ${at(m.next_run)} UTC` : ''}\n`);
      return 0;
    }
    case 'delete': out(`${await json(client, 'DELETE', `/monitors/${encodeURIComponent(id())}`)}\n`); return 0;
  }
  throw new UsageError(`trawl monitors takes create, list, show, runs, changes, pause, resume or delete${sub ? `, not ${sub}` : ''}`);
}
