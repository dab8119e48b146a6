/**
 * Clients that run on a worker thread of their own, so that what the test measures on the main
 * thread (where the harness's server runs) is the server's work, not the client's: a request sent in
 * pieces, and many slow connections held open.
 *
 * @example
 *   const c = await offThreadClient();
 *   await c.call('send', { url, head: 'GET /health?x={pad} HTTP/1.1\r\nHost: x\r\n\r\n', pad: 100, piece: 16384, gapMs: 1 }) // 'HTTP/1.1 200 OK'
 *   await c.close();
 */
import { Worker } from 'node:worker_threads';
import { spawn } from 'node:child_process';

const CODE = `
const net = require('node:net');
// A worker thread's port, or (run as a child process) the process's IPC channel.
const parentPort = require('node:worker_threads').parentPort ?? { on: (e, f) => process.on(e, f), postMessage: (m) => process.send(m) };
const held = [];
const ops = {
  // One request written in pieces of piece bytes, gapMs apart: the answer's status line. {pad} in
  // the head becomes pad 'a's here (a long head is not built nor copied on the measured thread).
  send: (o) => new Promise((resolve) => {
    const u = new URL(o.url);
    const text = Buffer.from(o.head.replace('{pad}', 'a'.repeat(o.pad ?? 0)));
    const s = net.connect(Number(u.port), u.hostname);
    s.setNoDelay(true);
    let buf = '';
    s.setEncoding('utf8');
    s.on('data', (d) => { buf += d; });
    s.on('error', () => {});
    s.on('close', () => resolve(buf.split('\\r\\n')[0]));
    let at = 0;
    const next = () => {
      if (at >= text.length || s.destroyed) return;
      const part = text.subarray(at, at + o.piece);
      at += o.piece;
      s.write(part, () => setTimeout(next, o.gapMs));
    };
    s.on('connect', next);
  }),
  // n connections from localAddress that send the start of a request and then nothing: how many
  // connected, and how many the server has closed so far (counted again by 'closed').
  hold: (o) => new Promise((resolve) => {
    const u = new URL(o.url);
    let settled = 0, connected = 0;
    const done = () => { if (++settled === o.n) resolve({ connected }); };
    for (let i = 0; i < o.n; i++) {
      const s = net.connect({ port: Number(u.port), host: u.hostname, localAddress: o.localAddress });
      s.on('connect', () => { connected++; s.write('GET /health HTTP/1.1\\r\\nHost: x\\r\\nX-Slow: '); done(); });
      s.on('error', () => { if (!s.connecting) return; done(); });
      s.on('close', () => { s.closedByServer = true; });
      // Read what the server sends (its time-out answer), so its closing is seen.
      s.on('data', (d) => { if (!s.answer) s.answer = String(d).split('\\r\\n')[0]; });
      held.push(s);
    }
  }),
  closed: async () => held.filter((s) => s.closedByServer).length,
  // The first line the server wrote on held connections, and how many got it.
  answers: async () => held.reduce((m, s) => (s.answer ? { ...m, [s.answer]: (m[s.answer] ?? 0) + 1 } : m), {}),
  release: async () => { for (const s of held) s.destroy(); const n = held.length; held.length = 0; return n; },
};
parentPort.on('message', async ({ id, op, arg }) => parentPort.postMessage({ id, value: await ops[op](arg) }));
`;

export interface OffThreadClient {
  call<T = unknown>(op: 'send' | 'hold' | 'closed' | 'answers' | 'release', arg?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** `process: true` runs the client in a child process: its own file descriptors (thousands of connections). */
export async function offThreadClient(o: { process?: boolean } = {}): Promise<OffThreadClient> {
  const worker = o.process
    ? spawn(process.execPath, ['-e', CODE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    : new Worker(CODE, { eval: true });
  const post = (m: unknown) => (worker instanceof Worker ? worker.postMessage(m) : worker.send(m as object));
  const waiting = new Map<number, (v: unknown) => void>();
  let next = 0;
  worker.on('message', ({ id, value }: { id: number; value: unknown }) => { waiting.get(id)?.(value); waiting.delete(id); });
  const c: OffThreadClient = {
    call: (op, arg) => new Promise((resolve) => { const id = next++; waiting.set(id, resolve as (v: unknown) => void); post({ id, op, arg }); }),
    close: async () => {
      await c.call('release');
      if (worker instanceof Worker) await worker.terminate();
      else { worker.disconnect(); worker.kill(); }
    },
  };
  await c.call('closed');
  return c;
}
