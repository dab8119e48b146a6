/**
 * V8 flags of the served process (issue 37, session 25). `npm start` runs
 * `node <SERVE_V8_FLAGS> dist/server/trawl.js serve` (package.json's start script; ./serve-flags.test.ts
 * keeps the two the same), and the service benches run `trawl serve` with them (bench/lib.ts serveArgs).
 *
 * A young generation of 64 MB semi-spaces, where V8 caps them at 16 MB on 64-bit. With 16 map searches
 * in flight the API thread holds about 3 MB at each scavenge (each query's records, their JSON text,
 * its statements), and at 16 MB a scavenge came every 15 queries, about one query's life from its
 * parse to its capture: most of what a query held lived through two scavenges and was promoted
 * (140 KB a query, 4.5 times the floor's), then marked and swept by the mark-compacts. At 64 MB a
 * scavenge comes every 70 queries and what a query holds dies young: 29 KB promoted a query, as the
 * floor's; V8's platform threads 0.51 → 0.39 ms a query and the process 0.92× the CPU a query
 * (docs/performance/service.md, session 25). The cost: up to 96 MB more young generation in an
 * isolate whose allocation fills it (the API thread, the parse threads), and a scavenge's pause
 * about twice as long (2.5 → 4.8 ms) a fifth as often.
 *
 * A heap's sizes are fixed when its isolate is made (v8.setFlagsFromString at run time changes none
 * of them), so the flag is the command line's.
 */
export const SERVE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
