/**
 * V8 flags of the served process (issue 37, session 25). `npm start` runs
 * `node <SERVE_V8_FLAGS> dist/server/trawl.js serve` (package.json's start script; ./serve-flags.test.ts
 * keeps the two the same), and the service benches run `trawl serve` with them (bench/lib.ts serveArgs).
 *
 * A young generation of 32 MB semi-spaces, where V8 caps them at 16 MB on 64-bit. With 16 map searches
 * in flight the API thread holds about 3 MB at each scavenge (each query's records, their JSON text,
 * its statements), and at 16 MB a scavenge came every 15 queries, about one query's life from its
 * parse to its capture: most of what a query held lived through two scavenges and was promoted
 * (137 KB a query, 4.5 times the floor's), then marked and swept by the mark-compacts. At 32 MB a
 * scavenge comes every 30 queries and most of it dies young: 37-48 KB promoted a query; the process
 * 0.95-0.97× the CPU a query (docs/performance/service.md, session 25). 64 MB semi-spaces saved more
 * (0.92-0.94×, 29 KB promoted) but cost up to 100 MB more in each busy thread: a 1000 × 500 GET's
 * peak reached 260-300 MB above idle against its 300 MB bound; 32 MB costs about a third of that.
 *
 * A heap's sizes are fixed when its isolate is made (v8.setFlagsFromString at run time changes none
 * of them, and under the flag a worker's resourceLimits do not cap its young generation), so the flag
 * is the command line's, for every isolate of the process.
 */
export const SERVE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
