/**
 * The API's command-line client: `trawl run | wait | requests | tasks | balance | cancel`, against a
 * running trawl (`--url`, default http://127.0.0.1:8080) with `--key` or TRAWL_API_KEY. Built on the
 * TypeScript client (clients/typescript), so both behave the same.
 *
 *   trawl run <endpoint> [queries... | --file queries.txt] [--<param> value ...] [--format csv|xlsx|json|parquet|jsonl] [--out FILE]
 *             [--escape-formulas all|none]   (csv: every formula-looking cell escaped, or none; default all but numbers and phones)
 *   trawl wait <request id> [--format ...] [--out FILE]      resumes waiting (e.g. after Ctrl-C)
 *   trawl requests [--running | --finished] [--json]
 *   trawl tasks [--json]
 *   trawl balance [--json]
 *   trawl cancel <request id>
 *   trawl monitors create|list|show|runs|changes|pause|resume|delete ...   (./monitors.ts)
 *   trawl businesses search "<text>" [--filters JSON] [--limit N] [--json] | get <id>   (./businesses.ts)
 *
 * Exit codes: 0 done; 1 the request ended in Failure; 2 wrong arguments; 3 the API refused the call
 * (401, 402, 404, 422 ...); 4 the server could not be reached or failed (5xx); 5 done, but some
 * queries failed (their results are empty; reasons on stderr); 130 interrupted (the request goes on).
 */
import { readFileSync } from 'node:fs';
import { TrawlClient, TrawlError, type DataPath, type Progress, type QueryError } from '../../../clients/typescript/src/client.ts';
import { parseClientArgs, UsageError, type OptionKinds } from './args.ts';
import { progressReporter } from './progress.ts';
import { fixedMicros } from '../../billing/money.ts';
import { dataText, isFileFormat, outFormat, table, when, writeOut, writeRecordsFile, type OutFormat } from './output.ts';
import { PART_QUERY_BYTES, partsOf, runParts } from './parts.ts';
import { MAX_QUERIES } from '../../contract/shared.ts';
import { MONITOR_OPTIONS, monitorsCommand } from './monitors.ts';
import { BUSINESSES_OPTIONS, businessesClientCommand } from './businesses.ts';

export const EXIT = { ok: 0, failure: 1, usage: 2, refused: 3, unreachable: 4, partial: 5, interrupted: 130 } as const;

const COMMON: OptionKinds = { url: 'string', key: 'string', json: 'boolean', quiet: 'boolean', help: 'boolean' };
const KINDS: Record<string, OptionKinds> = {
  run: { ...COMMON, file: 'string', format: 'string', out: 'string', 'escape-formulas': 'string' },
  wait: { ...COMMON, format: 'string', out: 'string' },
  requests: { ...COMMON, running: 'boolean', finished: 'boolean' },
  tasks: COMMON, balance: COMMON, cancel: COMMON,
  monitors: { ...COMMON, ...MONITOR_OPTIONS },
  businesses: { ...COMMON, ...BUSINESSES_OPTIONS },
};

const USAGE = `usage:
  trawl run <endpoint> [queries... | --file queries.txt] [--<param> value ...] [--format csv|xlsx|json|parquet|jsonl] [--out FILE] [--escape-formulas all|none]
  trawl wait <request id> [--format ...] [--out FILE]
  trawl requests [--running | --finished] [--json]
  trawl tasks [--json]  |  trawl balance [--json]  |  trawl cancel <request id>
  trawl monitors create <endpoint> [queries... | --file F] (--every 1d | --cron "0 9 * * 1" [--tz Zone]) [--name N] [--webhook URL] [--identity a,b --fields x,y] [--<param> value ...]
  trawl monitors list | show <id> | runs <id> | changes <id> [--kind changed,new] [--since DATE] | pause <id> | resume <id> | delete <id>   [--json]
  trawl businesses search "cafes in monaco" [--filters JSON] [--limit N] [--json]  |  trawl businesses get <os_id>
options: --url URL (default http://127.0.0.1:8080 or TRAWL_URL), --key KEY (or TRAWL_API_KEY), --quiet (no progress)
exit codes: 0 done, 1 request Failure, 2 wrong arguments, 3 refused by the API, 4 server unreachable or failing, 5 some queries failed, 130 interrupted
`;

const err = (s: string) => process.stderr.write(`${s}\n`);

function clientOf(o: Record<string, string | boolean>, env: NodeJS.ProcessEnv): TrawlClient {
  const apiKey = (o.key as string | undefined) ?? env.TRAWL_API_KEY;
  if (!apiKey) throw new UsageError('give the API key with --key or TRAWL_API_KEY');
  return new TrawlClient({ apiKey, baseUrl: (o.url as string | undefined) ?? env.TRAWL_URL ?? 'http://127.0.0.1:8080' });
}

function queriesOf(positionals: string[], file: string | undefined): string[] {
  const fromFile = file ? readFileSync(file === '-' ? 0 : file, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter(Boolean) : [];
  const q = [...positionals, ...fromFile];
  if (!q.length) throw new UsageError('give queries as arguments or with --file FILE (one a line; - reads stdin)');
  return q;
}

/** `--escape-formulas all|none` (as `trawl businesses export` takes it): the CSV file's `escape_formulas`. */
function escapingOf(flag: string | boolean | undefined, format: OutFormat): { escape_formulas?: boolean } {
  if (flag === undefined) return {};
  if (flag !== 'all' && flag !== 'none') {
    throw new UsageError(`--escape-formulas must be all (numbers and phones too) or none; without it every formula-looking text but plain numbers and phones is escaped (docs/exports.md); got ${JSON.stringify(flag)}`);
  }
  if (format !== 'csv') throw new UsageError(`--escape-formulas applies to --format csv, not ${format}`);
  return { escape_formulas: flag === 'all' };
}

/**
 * Waits (`wait` given the signal Ctrl-C aborts) with a progress on stderr; null when interrupted,
 * after saying so with `stopped` (the requests go on).
 */
async function waitWithProgress<T>(quiet: boolean, wait: (onProgress: (p: Progress) => void, signal: AbortSignal) => Promise<T>, stopped: () => string): Promise<T | null> {
  const progress = progressReporter(process.stderr, { quiet });
  const ac = new AbortController();
  const onSigint = () => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  try {
    return await wait((p) => progress.update(p), ac.signal);
  } catch (e) {
    if (!ac.signal.aborted) throw e;
    progress.done();
    err(stopped());
    return null;
  } finally {
    progress.done();
    process.off('SIGINT', onSigint);
  }
}

const failedQueries = (errors: QueryError[]) => { for (const e of errors) err(`query ${JSON.stringify(e.query)} failed: ${e.error.type}: ${e.error.message}`); };

/** Waits with progress, writes the result, and says how it ended. */
async function finish(client: TrawlClient, id: string, format: OutFormat, out: string | undefined, quiet: boolean): Promise<number> {
  const r = await waitWithProgress(quiet, (onProgress, signal) => client.wait(id, { onProgress, signal }), () => `stopped waiting; request ${id} goes on. Resume with: trawl wait ${id}`);
  if (!r) return EXIT.interrupted;
  failedQueries(r.errors);
  if (r.status === 'Failure') {
    err(`request ${id} ended in Failure${r.reason ? `: ${r.reason}` : ''}`);
    return EXIT.failure;
  }
  if (isFileFormat(format)) {
    if (!out && process.stdout.isTTY && format !== 'csv') throw new UsageError(`${format} is binary: give --out FILE`);
    await writeOut(await client.taskFile(id), out);
  } else {
    await writeOut(dataText(r.data, format), out);
  }
  if (out && !quiet) err(`wrote ${out}`);
  return r.errors.length ? EXIT.partial : EXIT.ok;
}

/**
 * `trawl run` in parts: submits them, shows one progress for all, and writes one output with every
 * query's records in the order of the queries. A file format is written here from the merged records
 * with the server's own writer (the parts' own files would be one file each).
 */
async function finishParts(client: TrawlClient, path: DataPath, parts: string[][], params: Record<string, unknown>, format: OutFormat,
  escapeFormulas: boolean | undefined, out: string | undefined, quiet: boolean): Promise<number> {
  if (isFileFormat(format) && !out && process.stdout.isTTY && format !== 'csv') throw new UsageError(`${format} is binary: give --out FILE`);
  const total = parts.reduce((n, p) => n + p.length, 0);
  if (!quiet) err(`${total} queries are more than one request takes (${MAX_QUERIES} queries, ${PART_QUERY_BYTES / 1024} KiB of query string): sent as ${parts.length} requests, at most 20 at once, merged in order; Ctrl-C stops waiting`);
  const ids: string[] = [];
  const r = await waitWithProgress(quiet, (onProgress, signal) => runParts(client, path, parts, params, { onProgress, onSubmit: (id) => ids.push(id), signal }),
    () => `stopped waiting; the ${ids.length} requests submitted go on (trawl wait ID resumes one): ${ids.join(' ')}; the other queries were not sent`);
  if (!r) return EXIT.interrupted;
  failedQueries(r.errors);
  for (const f of r.failed) err(`request ${f.id} (queries ${f.first + 1} to ${f.first + f.queries}) ended in Failure${f.reason ? `: ${f.reason}` : ''}; its queries have no records`);
  if (r.failed.length === r.ids.length) return EXIT.failure;
  if (isFileFormat(format)) await writeRecordsFile(format, r.data.flat() as Record<string, unknown>[], out, escapeFormulas);
  else await writeOut(dataText(r.data, format), out);
  if (out && !quiet) err(`wrote ${out}`);
  return r.errors.length || r.failed.length ? EXIT.partial : EXIT.ok;
}

async function command(cmd: string, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const a = parseClientArgs(argv, KINDS[cmd]);
  if (a.options.help) { process.stdout.write(USAGE); return EXIT.ok; }
  const client = clientOf(a.options, env);
  const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  switch (cmd) {
    case 'run': {
      const [endpoint, ...qs] = a.positionals;
      if (!endpoint) throw new UsageError('trawl run needs an endpoint, e.g. /reverse-geocoding');
      const path = (endpoint.startsWith('/') ? endpoint : `/${endpoint}`) as DataPath;
      const queries = queriesOf(qs, a.options.file as string | undefined);
      const format = outFormat(a.options.format as string | undefined, a.options.out as string | undefined);
      const escaping = escapingOf(a.options['escape-formulas'], format);
      // More than one request takes: parts, merged in order (./parts.ts).
      const parts = partsOf(queries, { maxBytes: Math.max(4096, PART_QUERY_BYTES - JSON.stringify(a.params).length) });
      if (parts.length > 1) return finishParts(client, path, parts, a.params, format, escaping.escape_formulas, a.options.out as string | undefined, !!a.options.quiet);
      const params: Record<string, unknown> = { ...a.params, ...(isFileFormat(format) ? { format } : {}), ...escaping };
      const { id } = await client.submit(path, queries, params as never);
      if (!a.options.quiet) err(`request ${id} submitted (${queries.length} ${queries.length === 1 ? 'query' : 'queries'}); Ctrl-C stops waiting, trawl wait ${id} resumes`);
      return finish(client, id, format, a.options.out as string | undefined, !!a.options.quiet);
    }
    case 'wait': {
      const id = a.positionals[0];
      if (!id) throw new UsageError('trawl wait needs a request id');
      return finish(client, id, outFormat(a.options.format as string | undefined, a.options.out as string | undefined), a.options.out as string | undefined, !!a.options.quiet);
    }
    case 'requests': {
      const types = a.options.running ? ['running'] as const : a.options.finished ? ['finished'] as const : ['running', 'finished'] as const;
      const items = (await Promise.all(types.map((type) => client.requests({ type, pageSize: 100 })))).flat();
      if (a.options.json) { print(items); return EXIT.ok; }
      if (!items.length) {
        const none = types.length === 2 ? 'no requests in the last 24 hours' : types[0] === 'running' ? 'no running requests' : 'no finished requests in the last 24 hours';
        process.stdout.write(`${none}\n`);
        return EXIT.ok;
      }
      process.stdout.write(table([['id', 'endpoint', 'status', 'queries', 'records', 'usage', 'created (UTC)'],
        ...items.map((r) => [r.id, r.endpoint ?? '', r.status ?? '', r.progress ? `${r.progress.queries_done}/${r.progress.queries_total}` : '', r.progress?.records ?? '', r.usage, when(r.created)])]));
      return EXIT.ok;
    }
    case 'tasks': {
      const { tasks } = await client.tasks({ pageSize: 100 });
      if (a.options.json) { print(tasks); return EXIT.ok; }
      if (!tasks.length) { process.stdout.write('no tasks\n'); return EXIT.ok; }
      // A failed task's reason stands where its file would.
      process.stdout.write(table([['id', 'status', 'service', 'queries', 'created', 'file or reason'],
        ...tasks.map((t) => [t.id, t.status, t.metadata.service_name, t.metadata.queries.length, t.created.slice(0, 19), t.results.find((x) => x.file_url)?.file_url ?? t.results.find((x) => x.error)?.error ?? ''])]));
      return EXIT.ok;
    }
    case 'balance': {
      const b = await client.balance();
      if (a.options.json) { print(b); return EXIT.ok; }
      const inv = b.upcoming_invoice;
      const cur = inv.currency.toUpperCase();
      // Six decimals from the exact micros, not the rounded numbers: the lines add up to the total as printed.
      const money = fixedMicros;
      process.stdout.write(`balance: ${money(b.balance_micros)} ${cur} (${b.account_status})\nupcoming invoice ${when(inv.period_start).slice(0, 10)} to ${when(inv.period_end).slice(0, 10)}: total ${money(inv.total_micros)} ${cur}, due ${money(inv.amount_due_micros)} ${cur}\n`);
      if (inv.products_lines.length) process.stdout.write(table([['product', 'quantity', 'unit', 'amount'], ...inv.products_lines.map((l) => [l.product_name, l.quantity, l.unit, money(l.amount_micros)])]));
      return EXIT.ok;
    }
    case 'businesses': return businessesClientCommand(client, a.positionals, a.options);
    case 'monitors': return monitorsCommand(client, a.positionals, a.options, a.params, (qs) => queriesOf(qs, a.options.file as string | undefined));
    case 'cancel': {
      const id = a.positionals[0];
      if (!id) throw new UsageError('trawl cancel needs a request id');
      process.stdout.write(`${await client.cancel(id)}\n`);
      return EXIT.ok;
    }
  }
  throw new UsageError(`unknown command ${cmd}`);
}

/** Runs one client command and answers its exit code (never throws). */
export async function clientCommand(cmd: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    return await command(cmd, argv, env);
  } catch (e) {
    if (e instanceof UsageError) { err(`trawl ${cmd}: ${e.message}\n${USAGE}`); return EXIT.usage; }
    if (e instanceof TrawlError) { err(`trawl ${cmd}: ${e.message}`); return e.status >= 500 ? EXIT.unreachable : EXIT.refused; }
    if (e instanceof TypeError && e.message === 'fetch failed') {
      // undici's network errors: the reason (ECONNREFUSED, ENOTFOUND ...) is in the cause.
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      err(`trawl ${cmd}: cannot reach the server (${cause?.code ?? cause?.message ?? 'network error'})`);
      return EXIT.unreachable;
    }
    err(`trawl ${cmd}: ${(e as Error).message}`);
    return EXIT.unreachable;
  }
}
