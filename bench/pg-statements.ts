/**
 * A preload (`--import ./bench/pg-statements.ts`, e.g. in the service bench's SERVER_NODE_ARGS) that
 * counts the statements a process sends to PostgreSQL by kind, with the CPU each took in its backend
 * (issue 37): a backend runs one statement at a time, so its /proc schedstat (nanoseconds on a CPU,
 * exact, not sampled by ticks) read before the statement is sent and when its reply has come, before
 * the connection goes back to the pool, is that statement's server CPU, parse and plan included.
 * On exit it writes `{ kind: [count, cpu ms] }` to PG_STATEMENTS_OUT (a file) and resets with
 * SIGUSR2 (so a warm-up is left out). A diagnostic: two /proc reads a statement cost this process CPU
 * (about 0.25 ms a map search's query; PG_STATEMENTS_CPU=0 counts only). Imported by bench/pg-store-path.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';

const byKind = new Map<string, [number, number]>();
const withCpu = process.env.PG_STATEMENTS_CPU !== '0';
const cpuNs = (pid: number): number => {
  if (!withCpu) return NaN;
  try { return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]); } catch { return NaN; }
};
const kinds = new Map<string, string>();
const kindOf = (text: string) => {
  let k = kinds.get(text);
  if (k === undefined) kinds.set(text, (k = text.replace(/\s+/g, ' ').trim().slice(0, 90)));
  return k;
};
const note = (text: string, ns: number) => {
  const k = byKind.get(kindOf(text)) ?? [0, 0];
  k[0]++;
  if (Number.isFinite(ns)) k[1] += ns / 1e6;
  byKind.set(kindOf(text), k);
};

/** The statements so far by kind (their text's first 90 characters): [count, backend CPU ms]. */
export function pgStatements(): ReadonlyMap<string, [number, number]> {
  return byKind;
}

export function resetPgStatements(): void {
  byKind.clear();
}

const orig = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client & { processID?: number }, config: unknown, ...rest: unknown[]) {
  const text = typeof config === 'string' ? config : (config as { text?: string })?.text ?? '?';
  const pid = this.processID;
  const t0 = pid ? cpuNs(pid) : NaN;
  const done = () => note(text, pid ? cpuNs(pid) - t0 : NaN);
  const cb = rest.findIndex((x) => typeof x === 'function');
  if (cb >= 0) {
    const f = rest[cb] as (...a: unknown[]) => unknown;
    rest[cb] = (...a: unknown[]) => { done(); return f(...a); };
    return orig.call(this, config, ...rest);
  }
  const out = orig.call(this, config, ...rest);
  if (out && typeof (out as Promise<unknown>).then === 'function') (out as Promise<unknown>).then(done, done);
  return out;
} as typeof pg.Client.prototype.query;

process.on('SIGUSR2', () => byKind.clear());
process.on('exit', () => {
  if (process.env.PG_STATEMENTS_OUT) writeFileSync(process.env.PG_STATEMENTS_OUT, JSON.stringify(Object.fromEntries(byKind)));
});
