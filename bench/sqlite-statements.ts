/**
 * Counts the SQLite statements a process runs, by text (issue 37): every run, get, all and iterate of
 * a better-sqlite3 statement, the BEGIN and COMMIT of its transactions included. Imported by
 * bench/store-path.ts; as a preload (`--import tsx --import ./bench/sqlite-statements.ts` in the
 * service bench's SERVER_NODE_ARGS, SQLITE_STATEMENTS_OUT in the arm's env) it resets on SIGUSR2
 * (the bench sends it after the warm-up) and writes `{ text: count }` to that file on exit.
 * A diagnostic: a wrapper a statement costs this process a little CPU.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';

const counts = new Map<string, number>();

// Every statement shares one prototype: wrapped once, before any store opens.
const probe = new Database(':memory:');
const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
probe.close();
for (const m of ['run', 'get', 'all', 'iterate']) {
  const f = proto[m];
  proto[m] = function (this: Database.Statement, ...a: unknown[]) {
    counts.set(this.source, (counts.get(this.source) ?? 0) + 1);
    return f.apply(this, a);
  };
}

/** The counts so far, by statement text. */
export function statementCounts(): ReadonlyMap<string, number> {
  return counts;
}

export function resetStatements(): void {
  counts.clear();
}

/** Statements by kind: commits, the business capture's, and the rest (the request's path). */
export function statementKinds(): { commits: number; business: number; path: number } {
  let commits = 0, business = 0, path = 0;
  for (const [text, n] of counts) {
    if (/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(text)) { if (/^\s*COMMIT/i.test(text)) commits += n; }
    else if (/\bbusiness/i.test(text)) business += n;
    else path += n;
  }
  return { commits, business, path };
}

process.on('SIGUSR2', resetStatements);
process.on('exit', () => {
  if (process.env.SQLITE_STATEMENTS_OUT) writeFileSync(process.env.SQLITE_STATEMENTS_OUT, JSON.stringify(Object.fromEntries(counts)));
});
