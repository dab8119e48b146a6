/**
 * Where a benched server parses its pages (issue 37, session 21): preloaded into a service
 * (`SERVER_NODE_ARGS='--import ./bench/parse-placement.js'`, PARSE_PLACEMENT_OUT in the arm's env), it
 * counts the pages parsed on the API thread (its JSON.parse of a text of PAGE_CHARS or more: the map
 * search's page is 191 K characters; here + thread came to N exactly) and those sent to a parse thread
 * (a job posted to a `parse-job` worker that is not a plan), with the busy share the placement rule
 * last read (src/ops/busy-share.ts, replicated from its reads of the loop's utilisation) at each, in
 * tenths: a page here with the share under HERE_BUSY was placed by the room rule (`room`), else every
 * parse thread was full (`full`). `samples`: the shares the service read, in tenths. Resets on SIGUSR2
 * (the service bench sends it after the warm-up); appends the counts to PARSE_PLACEMENT_OUT on exit, a line a server.
 * Since 2668a32 (session 21, svcH) a page still undecoded is parsed from its bytes, with no JSON.parse of
 * the whole page: on such a build `here` counts only pages decoded whole, and the pages parsed on the API
 * thread are N minus `thread` (their room/full split is then not counted).
 * Since session 26 (svcS) also, per thread job: `depth`, the parse jobs that thread already held when
 * one was posted (0..JOBS_PER_THREAD-1; src/engine/parse-thread.ts parses here only when every thread
 * holds JOBS_PER_THREAD), and `rtt`, its round trip from the post to the answer read here, in 2 ms
 * buckets (the last: 22 ms or more), with `rttMs` their sum.
 * A diagnostic: the wrappers cost this process a little CPU. Plain JavaScript (the bundles run without tsx).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const PAGE_CHARS = 100_000;
const HERE_BUSY = 0.7;
const out = process.env.PARSE_PLACEMENT_OUT;
const threads = createRequire(import.meta.url)('node:worker_threads');

if (out && threads.isMainThread) {
  const fresh = () => ({ here: 0, room: 0, full: 0, thread: 0, samples: new Array(11).fill(0), hereAt: new Array(11).fill(0), threadAt: new Array(11).fill(0), depth: new Array(16).fill(0), rtt: new Array(12).fill(0), rttMs: 0 });
  let c = fresh();
  const tenth = (x) => Math.max(0, Math.min(10, Math.floor(x * 10)));
  // The busy share the service last read (src/ops/busy-share.ts: each of its reads of the loop's
  // utilisation without arguments closes a window): its samples, as it computes them.
  const elu = performance.eventLoopUtilization.bind(performance);
  let last = null;
  let share = 0;
  performance.eventLoopUtilization = function (...a) {
    const r = elu(...a);
    if (a.length === 0) {
      const t = performance.now();
      if (last && t > last.t) { share = (r.active - last.active) / (t - last.t); c.samples[tenth(share)]++; }
      last = { t, active: r.active };
    }
    return r;
  };

  const Base = threads.Worker;
  threads.Worker = class extends Base {
    constructor(what, options) {
      super(what, options);
      const m = options?.workerData?.module;
      if (typeof m !== 'string' || !/parse-job\.(ts|js)$/.test(m)) return;
      const post = this.postMessage.bind(this);
      // The parse jobs this thread holds: when each was posted, by its id.
      const held = new Map();
      this.postMessage = (msg, transfer) => {
        if (msg && msg.data && msg.data.kind !== 'plan') {
          c.thread++; c.threadAt[tenth(share)]++;
          c.depth[Math.min(15, held.size)]++;
          held.set(msg.id, performance.now());
        }
        return post(msg, transfer);
      };
      this.on('message', (m) => {
        const t = held.get(m?.id);
        if (t === undefined) return;
        held.delete(m.id);
        const ms = performance.now() - t;
        c.rttMs += ms; c.rtt[Math.min(11, Math.floor(ms / 2))]++;
      });
    }
  };
  syncBuiltinESMExports();

  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    if (typeof text === 'string' && text.length >= PAGE_CHARS) {
      c.here++;
      c.hereAt[tenth(share)]++;
      // Here with the share under HERE_BUSY: placed by the room rule; else every parse thread was full.
      if (share < HERE_BUSY) c.room++; else c.full++;
    }
    return parse(text, reviver);
  };

  process.on('SIGUSR2', () => { c = fresh(); });
  process.on('exit', () => appendFileSync(out, `${JSON.stringify(c)}\n`));
}
