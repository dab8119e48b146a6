/**
 * Preloaded into a benched server (`--import ./bench/thread-names.js`, service bench) so its CPU can
 * be counted per thread: Node 20 leaves every thread's name `node` (libuv names its threads from 1.50,
 * in later Node), so /proc alone cannot tell a parse thread from a GC helper. Each worker thread the
 * process starts is written to THREAD_NAMES_FILE as `<tid> <name>`: the job module of a thread pool's
 * thread (`parse-job`, `checks-job`...), else the keys of its workerData. A Worker starts its one OS
 * thread inside its constructor, so the thread that appears across the constructor is the worker's.
 * Plain JavaScript: the bundles run without the TypeScript loader. Nothing else changes.
 */
import { appendFileSync, readdirSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';

const file = process.env.THREAD_NAMES_FILE;
if (file) {
  const threads = createRequire(import.meta.url)('node:worker_threads');
  const Base = threads.Worker;
  const tasks = () => new Set(readdirSync('/proc/self/task'));
  const nameOf = (data) => {
    if (data && typeof data.module === 'string') return data.module.split('/').pop().replace(/\.(ts|js)$/, '').replace(/^url-/, '');
    return `worker(${Object.keys(data ?? {}).join(',')})`;
  };
  threads.Worker = class extends Base {
    constructor(what, options) {
      const before = tasks();
      super(what, options);
      for (const tid of tasks()) if (!before.has(tid)) appendFileSync(file, `${tid} ${nameOf(options?.workerData)}\n`);
    }
  };
  // ESM `import { Worker } from 'node:worker_threads'` (the bundle, tsx) sees the subclass too.
  syncBuiltinESMExports();
}
