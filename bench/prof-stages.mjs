// API thread time by stage from a --cpu-prof profile of the service's bundle (issue 37, session 15):
// each busy sample goes to the stage of its innermost frame in src/ (through the bundle's source maps, the
// method enclosing the line), else of a package, else a Node internal.
// Run: node bench/prof-stages.mjs CPU.<...>.001.cpuprofile dist/server QUERIES   (OTHER=1 lists the unmatched;
// FROM_S=<seconds into the profile>: only the samples after it, e.g. from the first query, start-up left out)
import { readFileSync, existsSync } from 'node:fs';
import { SourceMap } from 'node:module';
const [file, dist, queries] = [process.argv[2], process.argv[3], Number(process.argv[4] ?? 1)];
const p = JSON.parse(readFileSync(file, 'utf8'));
const maps = new Map();
function mapOf(url) {
  if (!url.includes('/dist/')) return null;
  if (maps.has(url)) return maps.get(url);
  const f = dist + '/' + url.replace(/.*\/dist\/[^/]+\//, '') + '.map';
  let m = null;
  if (existsSync(f)) { const raw = JSON.parse(readFileSync(f, 'utf8')); m = new SourceMap(raw); m.contents = new Map(raw.sources.map((s, i) => [s, (raw.sourcesContent?.[i] ?? '').split('\n')])); }
  maps.set(url, m); return m;
}
/** The method or function enclosing a line: the nearest line above at indent 0 or 2 that opens one. */
function enclosing(lines, line) {
  for (let i = line; i >= 0; i--) {
    const t = lines[i] ?? '';
    const m = /^(?:export )?(?:async )?function\*? (\w+)/.exec(t) || /^  (?:private |readonly |static )*(?:async )?\*?(\w+)\s*[(<]/.exec(t) || /^(?:export )?const (\w+) =/.exec(t);
    if (m && !/^(if|for|while|switch|return)$/.test(m[1])) return m[1];
  }
  return '?';
}
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const memo = new Map();
function frame(id) {
  if (memo.has(id)) return memo.get(id);
  const cf = byId.get(id).callFrame; let s = null;
  if (cf.url.includes('/src/') && !cf.url.includes('/dist/')) s = { file: cf.url.replace(/.*\/src\//, 'src/'), fn: cf.functionName };
  else if (cf.url.includes('node_modules/')) s = { pkg: cf.url.replace(/.*node_modules\//, '').split('/')[0], fn: cf.functionName };
  else { const m = mapOf(cf.url); if (m) { const e = m.findEntry(cf.lineNumber, cf.columnNumber); if (e?.originalSource?.includes('/src/')) s = { file: e.originalSource.replace(/.*\/src\//, 'src/'), fn: enclosing(m.contents.get(e.originalSource) ?? [], e.originalLine) }; else if (e?.originalSource?.includes('node_modules/')) s = { pkg: e.originalSource.replace(/.*node_modules\//, '').split('/')[0], fn: cf.functionName }; } }
  memo.set(id, s); return s;
}
const WRITEV = 'socket writes (writev: wall time, the woken reader takes the core)';
const RULES = [
  [/src\/store\/records-codec/, 'result compression (brotli)'],
  [/src\/engine\/encode-records/, "records' JSON (runner)"],
  [/src\/store\/sqlite\/items.ts:(claimItems|fairHeads)|src\/store\/postgres\/items.ts:(claim\w*|fairHeads)|src\/store\/requests\/fairness|src\/store\/requests\/params-cache/, 'store: claim'],
  [/src\/store\/(sqlite|postgres)\/(items|lease|billing|results|webhooks|complete-item|checkpoint-free).ts|src\/store\/sqlite\/requests.ts:(finishIfDone|countCompletion|ended)|src\/store\/cap|src\/store\/requests\/stored/, 'store: completion (lease check, result row, bill, request end, webhook row; its Buffer.from of the records)'],
  [/src\/store\/(sqlite|postgres)\/requests|src\/store\/requests\/waiting/, 'store: request rows (submit, end poll)'],
  [/src\/store\/(sqlite|postgres)\/accounts|src\/store\/rows/, 'store: account reads'],
  [/src\/store\/sqlite\/(handle|checkpointer)|pkg:better-sqlite3/, 'store: transactions, commits'],
  // PostgreSQL's driver: the replies parsed on the event loop (no store frame above them) and the pool.
  [/src\/store\/postgres\/(handle|store|tasks|private-server)|pkg:(pg|pg-pool|pg-protocol|pg-types|postgres-\w+|pg-int8|pgpass)\b/, 'store: PostgreSQL driver, pool, transactions'],
  [/src\/store\/businesses|src\/app\/business|src\/businesses/, 'business capture'],
  [/src\/billing/, 'billing (purse, credit)'],
  [/src\/sources|src\/enrich/, 'parses on the API thread (adapter)'],
  [/src\/engine\/(parse-thread|body-slots|parse-job)|src\/ops\/thread-pool|node:postMessage/, 'parse thread crossing'],
  [/src\/fetch/, 'executor (replay)'],
  [/src\/engine|src\/service/, 'runner, steps, queue'],
  [/src\/http\/routes-data.ts:(sendText|joined|sendView)|src\/delivery|src\/app\/results|pkg:fastify:.*(send|Send|write|Write|onSendEnd|end)|node:(writev|writeUtf8String|writeBuffer|writeString)/, 'answer built and sent'],
  [/src\/http|src\/contract|src\/app\/(submit|accounts|keys|item-writer)|pkg:(fastify|find-my-way|avvio|light-my-request)|node:parserOn/, 'HTTP in, routing, authentication, parameters, submit'],
  [/src\/ops\/log|pkg:(pino|sonic-boom|@pinojs)/, 'log lines'],
  [/pkg:prom-client|src\/ops\/metrics/, 'metrics'],
  [/node:\(garbage collector\)/, 'garbage collection'],
  [/node:\(program\)/, 'unattributed native work (program)'],
];
const from = Number(process.env.FROM_S ?? 0) * 1e6;
const dt = new Map(); let at = 0;
for (let i = 0; i < p.samples.length; i++) { at += p.timeDeltas[i] ?? 0; if (at >= from) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0)); }
const out = new Map(); let busy = 0; const other = new Map(); const allKeys = new Map();
for (const [id, t] of dt) {
  const leaf = byId.get(id).callFrame; if (leaf.functionName === '(idle)') continue; busy += t;
  let cur = id, f = null, pkg = null;
  while (cur !== undefined) { const x = frame(cur); if (x?.file) { f = x; break; } if (x?.pkg && !pkg) pkg = x; cur = parent.get(cur); }
  // the nearest fastify frame below a src frame (for the answer path)
  let key = f ? `${f.file}:${f.fn}` : pkg ? `pkg:${pkg.pkg}:${pkg.fn}` : `node:${leaf.functionName || leaf.url}`;
  if (f && pkg && pkg.pkg === 'fastify') key = `pkg:fastify:${pkg.fn}|${key}`;
  // A socket write that wakes another process (a PostgreSQL backend, the load generator) is where
  // this thread loses its core; the profiler counts wall time there, so it is a stage of its own.
  const rule = leaf.functionName === 'writev' ? [null, WRITEV] : RULES.find(([re]) => re.test(key));
  const stage = rule ? rule[1] : 'node internals (timers, microtasks, modules, other)';
  if (!rule) other.set(key, (other.get(key) ?? 0) + t);
  allKeys.set(`${stage.slice(0, 20)} | ${key} | ${leaf.functionName}`, (allKeys.get(`${stage.slice(0, 20)} | ${key} | ${leaf.functionName}`) ?? 0) + t);
  out.set(stage, (out.get(stage) ?? 0) + t);
}
console.log(`busy ${(busy / 1000).toFixed(0)} ms, ${queries} queries: ${(busy / 1000 / queries).toFixed(3)} ms a query (profiled)`);
for (const [k, v] of [...out].sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${(100 * v / busy).toFixed(1)} % | ${(v / 1000 / queries).toFixed(3)} |`);
if (process.env.OTHER) for (const [k, v] of [...(process.env.OTHER === "all" ? allKeys : other)].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) console.log((v / 1000).toFixed(0).padStart(6), k);
