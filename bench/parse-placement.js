/**
 * Where a benched server parses its pages (issue 37, session 21): preloaded into a service
 * (`SERVER_NODE_ARGS='--import ./bench/parse-placement.js'`, PARSE_PLACEMENT_OUT in the arm's env), it
 * counts the pages parsed on the API thread (its JSON.parse of a text of PAGE_CHARS or more: the map
 * search's page is 191 K characters, nothing else the path parses comes near) and those sent to a parse
 * thread (a job posted to a `parse-job` worker that is not a plan), and for each page parsed here
 * whether every parse thread then held JOBS_PER_THREAD parses (`full`: src/engine/parse-thread.ts
 * places it here because the threads have no room) or not (`room`: placed here by HERE_BUSY, this
 * thread read as having room). Also the API thread's busy share (event-loop utilisation) by 250 ms
 * window, as src/ops/busy-share.ts reads it, in tenths. Resets on SIGUSR2 (the service bench sends it
 * after the warm-up); writes `{ here, full, room, thread, windows }` to PARSE_PLACEMENT_OUT on exit.
 * A diagnostic: the wrappers cost this process a little CPU. Plain JavaScript (the bundles run without tsx).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const PAGE_CHARS = 100_000;
const JOBS_PER_THREAD = 8;
const out = process.env.PARSE_PLACEMENT_OUT;
const threads = createRequire(import.meta.url)('node:worker_threads');

if (out && threads.isMainThread) {
  let c = { here: 0, full: 0, room: 0, thread: 0, windows: new Array(11).fill(0) };
  /** Parse threads and the jobs each holds (posted, not answered). */
  const held = new Map();
  const Base = threads.Worker;
  threads.Worker = class extends Base {
    constructor(what, options) {
      super(what, options);
      const m = options?.workerData?.module;
      if (typeof m !== 'string' || !/parse-job\.(ts|js)$/.test(m)) return;
      held.set(this, 0);
      this.on('message', (msg) => { if (msg && 'id' in msg && 'ok' in msg) held.set(this, Math.max(0, held.get(this) - 1)); });
      const post = this.postMessage.bind(this);
      this.postMessage = (msg, transfer) => {
        if (msg && msg.data && msg.data.kind !== 'plan') { c.thread++; held.set(this, held.get(this) + 1); }
        return post(msg, transfer);
      };
    }
  };
  syncBuiltinESMExports();

  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    if (typeof text === 'string' && text.length >= PAGE_CHARS) {
      c.here++;
      const full = held.size > 0 && [...held.values()].every((n) => n >= JOBS_PER_THREAD);
      if (full) c.full++; else c.room++;
    }
    return parse(text, reviver);
  };

  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    c.windows[Math.min(10, Math.floor(share * 10))]++;
  }, 250).unref();

  process.on('SIGUSR2', () => { c = { here: 0, full: 0, room: 0, thread: 0, windows: new Array(11).fill(0) }; });
  process.on('exit', () => writeFileSync(out, JSON.stringify(c)));
}
