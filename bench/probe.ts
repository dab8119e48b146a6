/**
 * The `/health` prober of the responsiveness bench, run as its OWN process so that its timings do
 * not share the event loop it measures. Reads commands on stdin, one a line:
 *   `start`  forget the samples so far      `stop`  print `{"ms":[...]}` (one latency per probe)
 * Between probes it waits PROBE_MS (5); a stalled server shows as one long latency.
 * Run by bench/responsive.bench.ts: node bin/run-ts.js bench/probe.ts <health url>
 * PROBE_LOG=<file>: each probe over 40 ms appended as `<µs of CLOCK_MONOTONIC when sent> <ms>`, the
 * clock of a server's `--cpu-prof` samples (SERVER_NODE_ARGS), to see what the server ran meanwhile.
 */
import { appendFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { createInterface } from 'node:readline';

const url = new URL(process.argv[2]);
const every = Number(process.env.PROBE_MS ?? 5);
const LOG = process.env.PROBE_LOG;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let samples: number[] = [];
// When the probe in flight started: a stall still going on at `stop` counts with its length so far.
let inFlight = 0;

function probe(): Promise<number> {
  const t = performance.now();
  inFlight = t;
  return new Promise((resolve) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t));
    });
    req.on('error', () => resolve(performance.now() - t));
    req.end();
  });
}

createInterface({ input: process.stdin }).on('line', (l) => {
  if (l === 'start') samples = [];
  else if (l === 'stop') process.stdout.write(`${JSON.stringify({ ms: inFlight ? [...samples, performance.now() - inFlight] : samples })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdout.write('{"ready":true}\n');
for (;;) {
  const sent = process.hrtime.bigint();
  const ms = await probe();
  if (LOG && ms > 40) appendFileSync(LOG, `${sent / 1000n} ${ms.toFixed(1)}\n`);
  inFlight = 0;
  samples.push(ms);
  await new Promise((r) => setTimeout(r, every));
}
