/**
 * PostgreSQL's own CPU on this machine, from /proc (issue 37): the service bench counts the node
 * process only, but on a box where the database shares the cores, its backends, WAL writer and
 * checkpointer are part of what a query costs. Read for the server's processes (`postgres` by name):
 *
 * - `all`: every PostgreSQL process (utime + stime), plus what the postmaster reaped from children
 *   that ended (cutime + cstime), so a backend that exits inside the window still counts. Anything
 *   else using the same server (another process's tests) counts too.
 * - `own`: only the backends connected to the given client process (their client port is one of its
 *   sockets): the statements of that process alone, without the WAL writer or checkpointer. A backend
 *   reached over the server's Unix socket shows no port (`[local]`): with `database` given, those of
 *   that database count as the client's (the service bench gives each arm a database of its own).
 *
 * A no-op (zeros, `seen: false`) where no PostgreSQL runs on this machine.
 *
 * @example const a = pgCpuMs(server.pid); ...; const b = pgCpuMs(server.pid); (b.all - a.all) / n
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ = 100

function stat(pid: string): { comm: string; ppid: string; cpu: number; reaped: number } | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = f.slice(f.indexOf('(') + 1, f.lastIndexOf(')'));
    const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return { comm, ppid: x[1], cpu: (Number(x[11]) + Number(x[12])) * TICK_MS, reaped: (Number(x[13]) + Number(x[14])) * TICK_MS };
  } catch {
    return null; // ended meanwhile
  }
}

/** Local TCP ports of `pid`'s sockets (IPv4 and IPv6). */
function clientPorts(pid: number): Set<string> {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch { /* closed meanwhile */ }
    }
  } catch {
    return new Set();
  }
  const ports = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try { text = readFileSync(table, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9])) ports.add(String(parseInt(f[1].split(':')[1], 16)));
    }
  }
  return ports;
}

/** PostgreSQL's CPU ms so far: all of its processes, and the backends of client process `clientPid`. */
export function pgCpuMs(clientPid?: number, database?: string): { all: number; own: number; seen: boolean } {
  const procs = new Map<string, NonNullable<ReturnType<typeof stat>>>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const s = stat(pid);
    if (s?.comm === 'postgres') procs.set(pid, s);
  }
  const ports = clientPid ? clientPorts(clientPid) : new Set<string>();
  let all = 0;
  let own = 0;
  for (const [pid, s] of procs) {
    all += s.cpu;
    // The postmaster (its parent is not a postgres process): its ended children's CPU.
    if (!procs.has(s.ppid)) all += s.reaped;
    else if (ports.size || database) {
      // A backend's title: "postgres: 15/main: user db 127.0.0.1(45678) idle", or "... user db [local] idle".
      let title = '';
      try { title = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
      const m = /\((\d+)\)/.exec(title);
      if (m ? ports.has(m[1]) : !!database && title.includes(` ${database} [local]`)) own += s.cpu;
    }
  }
  return { all, own, seen: procs.size > 0 };
}
