/**
 * Garbage collection per isolate of a benched server (issue 37, session 25): preloaded into a server
 * (`SERVER_NODE_ARGS='--import ./bench/gc-isolates.js'`, GC_ISOLATES_OUT a directory in the
 * environment), it runs in the API thread and in every worker thread (Node 20 does not run `--import`
 * in a worker, so each eval worker's code is made to import this file first),
 * and counts each isolate's collections with `v8.GCProfiler`: scavenges and mark-compacts, their time
 * on the thread (`cost`), the young generation's bytes before and after a scavenge (what it copied and
 * kept), and the old generation's growth across it (what it promoted). Resets on SIGUSR2 (the service
 * bench sends it after the warm-up; the API thread tells the workers by a BroadcastChannel), so the
 * counts are the measured queries'. Each thread writes its totals to GC_ISOLATES_OUT/<pid>-<thread>.json
 * every quarter second and at exit (with the young generation's grown size, and on the API thread the
 * process's resident memory, at most over the window) (a worker may be ended without its exit event).
 * A diagnostic: the profiler costs each thread a little. Plain JavaScript (the bundles run without tsx).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const out = process.env.GC_ISOLATES_OUT;
const require = createRequire(import.meta.url);
const threads = require('node:worker_threads');
const v8 = require('node:v8');

if (out) {
  const data = threads.workerData;
  const name = threads.isMainThread ? 'api' : typeof data?.module === 'string' ? data.module.split('/').pop().replace(/\.(ts|js)$/, '') : `worker(${Object.keys(data ?? {}).join(',')})`;
  const file = join(out, `${process.pid}-${threads.threadId}-${name}.json`);
  const young = (s) => s.filter((x) => x.spaceName === 'new_space' || x.spaceName === 'new_large_object_space').reduce((a, x) => a + x.spaceUsedSize, 0);
  const old = (s) => s.filter((x) => x.spaceName !== 'new_space' && x.spaceName !== 'new_large_object_space').reduce((a, x) => a + x.spaceUsedSize, 0);
  const fresh = () => ({ thread: name, pid: process.pid, since: Date.now(), scavenges: 0, scavengeUs: 0, youngBefore: 0, youngAfter: 0, promoted: 0, markCompacts: 0, markCompactUs: 0, freedByMarkCompact: 0, incrementalUs: 0, otherUs: 0, heapUsedAtReset: 0, heapUsedNow: 0, youngCapacityMax: 0, rssMax: 0 });
  let t = fresh();
  let profiler = new v8.GCProfiler();
  profiler.start();
  const collect = () => {
    const r = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    for (const g of r?.statistics ?? []) {
      const b = g.beforeGC.heapSpaceStatistics;
      const a = g.afterGC.heapSpaceStatistics;
      if (g.gcType === 'Scavenge' || g.gcType === 'MinorMarkCompact') {
        t.scavenges++; t.scavengeUs += g.cost;
        t.youngBefore += young(b); t.youngAfter += young(a); t.promoted += Math.max(0, old(a) - old(b));
      } else if (g.gcType === 'MarkSweepCompact') {
        t.markCompacts++; t.markCompactUs += g.cost; t.freedByMarkCompact += old(b) - old(a);
      } else if (g.gcType === 'IncrementalMarking') t.incrementalUs += g.cost;
      else t.otherUs += g.cost;
    }
    t.heapUsedNow = v8.getHeapStatistics().used_heap_size;
    // The young generation's size as grown (both semi-spaces), and the process's resident memory.
    const space = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
    t.youngCapacityMax = Math.max(t.youngCapacityMax, space?.space_size ?? 0);
    if (threads.isMainThread) t.rssMax = Math.max(t.rssMax, process.memoryUsage.rss());
  };
  const write = () => { collect(); writeFileSync(file, JSON.stringify(t)); };
  const reset = () => { collect(); t = fresh(); t.heapUsedAtReset = v8.getHeapStatistics().used_heap_size; };
  const channel = new BroadcastChannel('bench-gc-isolates');
  channel.unref();
  if (threads.isMainThread) {
    const Base = threads.Worker;
    const self = JSON.stringify(import.meta.url);
    threads.Worker = class extends Base {
      constructor(what, options) {
        super(options?.eval && typeof what === 'string' ? `import(${self});\n${what}` : what, options);
      }
    };
    syncBuiltinESMExports();
    process.on('SIGUSR2', () => { reset(); channel.postMessage('reset'); });
    process.on('exit', write);
  } else {
    channel.onmessage = () => reset();
  }
  setInterval(write, 250).unref();
}
