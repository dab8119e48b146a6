/**
 * `trawl` command line: run the service and operate accounts.
 *
 *   trawl serve [--no-workers]          API plus in-process workers (PORT, HOST, DATA_DIR ...)
 *   trawl worker                         workers only (METRICS_PORT: /health, /ready, /metrics)
 *   trawl migrate                        apply store migrations and exit
 *   trawl accounts create --name N [--balance X] [--credit-limit X] [--rate R] [--burst B]
 *   trawl accounts list
 *   trawl accounts balance --id ID [--add X]     shows the balance, or adds X to it
 *   trawl accounts usage --id ID [--from ISO] [--to ISO]
 *   trawl accounts past-due --id ID --on|--off
 *   trawl keys create --account ID | keys list --account ID | keys revoke --id KEY_ID
 *   trawl businesses import FILE [--country CC] [--account ID]   an OSM extract (.osm.pbf, .osm, .osm.gz) or our own records
 *                                   (JSON lines, JSON, CSV, xlsx, parquet) into the business database
 *   trawl businesses export --out FILE [--format F] [--account ID] [--filters JSON] [--country CC] [--types a,b] [--cities a,b]
 *                                   [--name TEXT] [--rating EXPR]   the selection as a task file (xlsx, csv, json, parquet)
 *   trawl prices set --product P --price X [--account ID]
 *   trawl parse <endpoint path> <file>   records the endpoint returns for one captured response
 *   trawl fetch <url> [--profile browser|chrome|firefox|node] [--proxy URL] [--out FILE]   what a site answers us (src/cli/fetch.ts)
 *   trawl canary [--source NAME] [--json] [--timeout SECONDS]   each source's canary query against the live site: ok,
 *                                   degraded, blocked or layout_changed; exit 0 all ok, 3/4/5 the worst (src/cli/canary.ts)
 *   trawl run | wait | requests | tasks | balance | cancel | monitors   the API's client (src/cli/client/main.ts)
 *   trawl businesses search "<text>" | get <id>   the business database through the API (src/cli/client/businesses.ts)
 *   trawl mcp                            the MCP server over stdio for AI agents, on TRAWL_URL with TRAWL_API_KEY (src/cli/mcp.ts)
 *
 * Every command prints JSON on stdout; errors go to stderr with a non-zero exit code.
 */
import { parseArgs } from 'node:util';
import { settingsFromEnv } from '../config/settings.ts';
import { openBackends } from '../config/backends.ts';
import { createAccount, createApiKey } from '../app/accounts.ts';
import { billingPeriod } from '../app/balance.ts';
import { MICROS_PER_UNIT, fixedMicros, parseMicros } from '../billing/money.ts';
import type { Account } from '../store/contract.ts';

const out = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);

function fail(message: string, code = 2): never {
  process.stderr.write(`trawl: ${message}\n`);
  process.exit(code);
}

async function withStore<T>(fn: (b: Awaited<ReturnType<typeof openBackends>>) => Promise<T>): Promise<T> {
  const b = await openBackends(process.env);
  try {
    return await fn(b);
  } finally {
    await b.close();
  }
}

async function serve(workers: boolean, listen: boolean) {
  const settings = { ...settingsFromEnv(process.env), ...(workers ? {} : { workers: false }) };
  // The address first: a port in use must not leave a store, an account and a printed key behind.
  const { portProblem, listenProblem } = await import('../ops/port-check.ts');
  const problem = listen ? await portProblem(settings.port, settings.host) : undefined;
  if (problem) fail(problem, 1);
  // The service (HTTP server, engine) loads only here: the account commands start without it.
  const { startService } = await import('../service/start.ts');
  const svc = await startService({ settings });
  if (listen) {
    let url: string;
    try {
      url = await svc.listen();
    } catch (e) {
      // Taken between the check and now (another process started meanwhile).
      await svc.close();
      return fail(listenProblem(e as NodeJS.ErrnoException, settings.port, settings.host) ?? (e as Error).message, 1);
    }
    if ((await svc.ctx.store.countAccounts()) === 0) {
      // First start on an empty store: one account, its key printed once, so the API can be called at once.
      const { account, apiKey } = await createAccount(svc.ctx.store, settings, { name: 'default', balanceMicros: 100 * MICROS_PER_UNIT });
      process.stdout.write(`\nCreated the first account ${account.id} with a balance of 100 ${account.currency}.\nIts API key (shown once, keep it): ${apiKey}\n\n`);
    }
    svc.ctx.log.info({ url, workers: settings.workers, owner: svc.owner }, 'trawl listening');
    // The submit checks' thread starts now, after listening (start-up is not slower to be ready),
    // so the first request with an `area` does not wait for it to load its data (src/app/checks.ts).
    void (await import('../app/checks.ts')).warmChecks();
  } else {
    // No API here; METRICS_PORT serves /health, /ready and /metrics for Prometheus.
    const metricsUrl = process.env.METRICS_PORT ? await svc.listenOps(Number(process.env.METRICS_PORT)) : undefined;
    svc.ctx.log.info({ owner: svc.owner, metricsUrl }, 'trawl worker started');
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    svc.ctx.log.info({ signal }, 'shutting down: finishing running items');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await svc.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** A price as an operator types it: a plain non-negative decimal of at most 6 places ('0.003', '2'),
 *  read exactly into micros; no sign, hex, exponent or empty text, which Number() would turn into a
 *  price nobody meant. */
const priceOf = (v: unknown): number => {
  const m = typeof v === 'string' && /^\s*\d/.test(v) ? parseMicros(v) : null;
  if (m === null) fail(`--price must be a non-negative decimal number of at most 6 decimals such as 0.003, got ${JSON.stringify(v ?? null)}`);
  return m!;
};

/** An amount of money as an operator types it (may be negative), in micros. */
const moneyOf = (v: unknown, what: string): number => {
  const m = typeof v === 'string' ? parseMicros(v) : null;
  if (m === null) fail(`${what} must be a decimal number of at most 6 decimals such as 25 or -0.5, got ${JSON.stringify(v ?? null)}`);
  return m!;
};

const num = (v: unknown, what: string): number => {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n)) fail(`${what} must be a number`);
  return n;
};

/** An account as the CLI lists it: money in fixed decimals, never its webhook secret. */
const shownAccount = ({ webhookSecret: _s, balanceMicros, creditLimitMicros, ...a }: Account) => ({
  ...a, balance: fixedMicros(balanceMicros), creditLimit: fixedMicros(creditLimitMicros),
});

const CLIENT = new Set(['run', 'wait', 'requests', 'tasks', 'balance', 'cancel', 'monitors']);

async function main(argv: string[]) {
  const [cmd, sub, ...rest] = argv;
  // The API's client commands load only the client: they talk to a running server over HTTP.
  // `businesses search|get` are the API's too; import and export work on the store.
  if (CLIENT.has(cmd) || (cmd === 'businesses' && (sub === 'search' || sub === 'get'))) {
    return process.exit(await (await import('./client/main.ts')).clientCommand(cmd, argv.slice(1)));
  }
  if (cmd === 'mcp') return (await import('./mcp.ts')).mcpStdio(process.env);
  const { values, positionals } = parseArgs({
    args: cmd === 'serve' || cmd === 'worker' || cmd === 'migrate' || cmd === 'parse' || cmd === 'fetch' || cmd === 'canary' ? [sub, ...rest].filter((x) => x !== undefined) : rest,
    allowPositionals: true, strict: false,
    options: {
      name: { type: 'string' }, balance: { type: 'string' }, 'credit-limit': { type: 'string' }, rate: { type: 'string' }, burst: { type: 'string' },
      id: { type: 'string' }, add: { type: 'string' }, account: { type: 'string' }, product: { type: 'string' }, price: { type: 'string' },
      from: { type: 'string' }, to: { type: 'string' }, on: { type: 'boolean' }, off: { type: 'boolean' }, 'no-workers': { type: 'boolean' },
      country: { type: 'string' }, out: { type: 'string' }, format: { type: 'string' }, filters: { type: 'string' }, types: { type: 'string' },
      cities: { type: 'string' }, rating: { type: 'string' }, 'escape-formulas': { type: 'string' }, profile: { type: 'string' }, proxy: { type: 'string' },
      source: { type: 'string' }, json: { type: 'boolean' }, timeout: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  switch (cmd) {
    case 'serve':
      return serve(!values['no-workers'], true);
    case 'worker':
      return serve(true, false);
    case 'migrate':
      return withStore(async () => out({ migrated: true }));
    case 'parse':
      // The source parsers load only for this command: every other command starts without them.
      return (await import('./parse.ts')).parseCommand(positionals[0], positionals[1]);
    case 'fetch': {
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      process.exitCode = await (await import('./fetch.ts')).fetchCommand(positionals[0], { profile: str(values.profile), proxy: str(values.proxy), out: str(values.out) });
      return;
    }
    case 'canary': {
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      // Exits at once: a source's request still hanging after its timeout must not hold a cron job.
      return process.exit(await (await import('./canary.ts')).canaryCommand({ source: str(values.source), json: values.json === true, timeout: str(values.timeout), help: values.help === true }));
    }
    case 'accounts':
      return withStore(async ({ store }) => {
        const settings = settingsFromEnv(process.env);
        if (sub === 'create') {
          if (!values.name || typeof values.name !== 'string') fail('accounts create needs --name NAME');
          const { account, apiKey, keyId } = await createAccount(store, settings, {
            name: values.name as string, balanceMicros: values.balance !== undefined ? moneyOf(values.balance, '--balance') : 0,
            creditLimitMicros: values['credit-limit'] !== undefined ? moneyOf(values['credit-limit'], '--credit-limit') : 0,
            ratePerSec: values.rate !== undefined ? num(values.rate, '--rate') : undefined, burst: values.burst !== undefined ? num(values.burst, '--burst') : undefined,
          });
          return out({ id: account.id, api_key: apiKey, key_id: keyId, webhook_secret: account.webhookSecret, balance: fixedMicros(account.balanceMicros), currency: account.currency });
        }
        if (sub === 'list') return out((await store.listAccounts()).map(shownAccount));
        const id = values.id as string | undefined;
        if (!id || !(await store.getAccount(id))) fail('give --id of an existing account');
        if (sub === 'balance') {
          if (values.add === undefined) {
            const a = (await store.getAccount(id))!;
            return out({ id, balance: fixedMicros(a.balanceMicros), credit_limit: fixedMicros(a.creditLimitMicros), currency: a.currency });
          }
          return out({ id, balance: fixedMicros(await store.addBalance(id, moneyOf(values.add, '--add'))) });
        }
        if (sub === 'past-due') {
          await store.updateAccount(id, { pastDue: !!values.on && !values.off });
          return out({ id, past_due: !!values.on && !values.off });
        }
        if (sub === 'usage') {
          const p = billingPeriod(Date.now());
          const from = values.from ? Date.parse(values.from as string) : p.start;
          const to = values.to ? Date.parse(values.to as string) : p.end;
          if (!Number.isFinite(from) || !Number.isFinite(to)) fail('--from and --to must be ISO dates');
          const lines = (await store.usageForPeriod(id, from, to)).map(({ amountMicros, unitPriceMicros, ...l }) => ({
            ...l, unit_price: fixedMicros(unitPriceMicros), amount: fixedMicros(amountMicros),
          }));
          return out({ id, from: new Date(from).toISOString(), to: new Date(to).toISOString(), lines });
        }
        return fail(`unknown: accounts ${sub ?? ''} (create, list, balance, usage, past-due)`);
      });
    case 'businesses':
      return withStore(async ({ store }) => (await import('./businesses.ts')).businessesCommand(store, sub, positionals, values, { out, fail }));
    case 'keys':
      return withStore(async ({ store }) => {
        if (sub === 'create' || sub === 'list') {
          const account = values.account as string | undefined;
          if (!account || !(await store.getAccount(account))) fail('give --account of an existing account');
          if (sub === 'list') return out(await store.listApiKeys(account));
          const k = await createApiKey(store, account);
          return out({ account, api_key: k.key, key_id: k.id });
        }
        if (sub === 'revoke') {
          if (!values.id) fail('keys revoke needs --id KEY_ID');
          const ok = await store.revokeApiKey(values.id as string, Date.now());
          if (!ok) fail(`no active key ${values.id}`, 1);
          return out({ revoked: values.id });
        }
        return fail(`unknown: keys ${sub ?? ''} (create, list, revoke)`);
      });
    case 'prices':
      return withStore(async ({ store }) => {
        if (sub !== 'set' || !values.product) fail('prices set --product P --price X [--account ID]');
        const price = priceOf(values.price);
        await store.setPrice(values.product as string, price, (values.account as string | undefined) ?? null);
        return out({ product: values.product, price: fixedMicros(price), account: values.account ?? null });
      });
    default:
      process.stdout.write('usage: trawl serve [--no-workers] | worker | migrate | accounts ... | keys ... | prices set ... | parse <endpoint> <file> | businesses import <file> | businesses export --out <file> [filters]\n       trawl businesses search "<text>" [--limit N] [--json] | businesses get <id>   (the API client, with TRAWL_API_KEY)\n       trawl fetch <url> [--profile P] [--proxy URL] [--out FILE] | canary [--source NAME] [--json] [--timeout SECONDS]   (cron: exit 0 all sources ok, 3 degraded, 4 blocked, 5 layout changed)\n       trawl run | wait | requests | tasks | balance | cancel | monitors   (the API client: trawl run --help)\n       trawl mcp   (the MCP server over stdio for AI agents, with TRAWL_URL and TRAWL_API_KEY)\n');
      if (cmd && cmd !== 'help' && cmd !== '--help') process.exit(2);
  }
}

main(process.argv.slice(2)).catch((e) => fail((e as Error).stack ?? String(e), 1));
