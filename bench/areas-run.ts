/**
 * One area query through the real /maps/search adapter (plan, parse, the merge's dedupe) against a
 * loopback map site in process (no sockets: the planner is measured, not the network), scored
 * against the site's truth and its oracle. Shared by bench/areas.bench.ts and areas-robust.bench.ts.
 */
import { adapter } from '../src/sources/maps-search/adapter.ts';
import type { Area } from '../src/lookups/geo/area/resolve.ts';
import { rootViews } from '../src/sources/maps-search/cover.ts';
import { placeKey } from '../src/sources/maps-search/finish.ts';
import type { MapsSearchParams } from '../src/sources/_maps/params.ts';
import type { MapSite } from '../test/support/map-site.ts';
import type { AreaState } from '../src/sources/maps-search/cover.ts';
import { noiseRate } from '../src/sources/maps-search/noise.ts';
import { whereTracker, type Where } from './areas-where.ts';
import { attribTracker, type Attrib } from './areas-attrib.ts';

export interface AreaRun {
  /** Places of the area (the truth), places drawn over the field, places returned. */
  places: number; generated: number; found: number;
  /** Share of the area's places returned; places returned outside the area. */
  recall: number; outside: number;
  requests: number; oracle_requests: number; requests_ratio: number;
  /** The query's coverage figure, and |coverage - recall| in points of percent. */
  coverage: number; coverage_error: number;
  run_s: number;
  summary?: Record<string, unknown>;
  /** Where the requests went (AREAS_WHERE=1; bench/areas-where.ts). */
  where?: Where;
  /** The requests against the oracle's quadtree (AREAS_ATTRIB=1; bench/areas-attrib.ts). */
  attrib?: Attrib;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
/** Times a failed answer (429, 5xx) is asked again. */
const RETRIES = 5;
/** Times the engine resumes a query whose step failed every retry (its attempts). */
const RESUMES = 20;

/** `oracle` when already known (it is the same for every run over one site). */
export function runArea(site: MapSite, area: Area, value: string, oracle = site.oracle(rootViews(area))): AreaRun {
  const ctx = { query: 'dentist', params: { area: value } as MapsSearchParams };
  const queue = adapter.plan(ctx);
  const found = new Set<string>();
  const before = site.requests;
  let outside = 0;
  let summary: Record<string, unknown> | undefined;
  let lastNz: AreaState['nz'];
  const where = process.env.AREAS_WHERE ? whereTracker() : undefined;
  const attrib = process.env.AREAS_ATTRIB ? attribTracker() : undefined;
  const t = performance.now();
  const trace: Array<[number, number]> = [];
  while (queue.length) {
    const step = queue.shift()!;
    // A 429 or 5xx is asked again, as the executor retries it (each answer is a request the site counted),
    // and past its retries as the engine does: the query resumes from the step's checkpoint (a burst).
    let res = site.serve(step.url);
    for (let k = 0; k < RESUMES * RETRIES && (res.status === 429 || res.status >= 500); k++) res = site.serve(step.url);
    attrib?.step(step.state as unknown as AreaState);
    const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx);
    where?.step(step.state as unknown as AreaState, out.next?.[0]?.state as unknown as AreaState | undefined, out.records.length);
    for (const r of out.records) {
      const k = placeKey(r);
      if (found.has(k)) continue;
      found.add(k);
      if (!site.inside[parseInt(r.engine_id!.split(':0x')[1]!, 16)]) outside++;
    }
    if (out.summary) summary = out.summary;
    // How far ranks move as the run read it (AREAS_RATE=1: its last step's fit).
    if (process.env.AREAS_RATE) lastNz = (step.state as unknown as AreaState).nz;
    // AREAS_TRACE=1: the rate at each change, so a rule switched by an early reading shows when and how long.
    if (process.env.AREAS_TRACE) {
      const rt = Math.round(noiseRate((step.state as unknown as AreaState).nz) * 1000) / 1000;
      if (rt !== trace[trace.length - 1]?.[1]) trace.push([site.requests - before, rt]);
    }
    queue.push(...(out.next ?? []));
  }
  const requests = site.requests - before;
  // An area without a place of its own: nothing to find, all of it found.
  const recall = site.insideCount ? (found.size - outside) / site.insideCount : 1;
  const coverage = Number(summary?.coverage ?? NaN);
  return {
    places: site.insideCount, generated: site.count, found: found.size, recall: round(recall, 4), outside,
    requests, oracle_requests: oracle, requests_ratio: round(requests / oracle, 3),
    coverage, coverage_error: round(Math.abs(coverage - recall) * 100, 2),
    run_s: round((performance.now() - t) / 1000, 1), ...(process.env.AREAS_RATE ? { noise_rate: round(noiseRate(lastNz), 3) } : {}), summary, ...(where ? { where: where.w } : {}),
    ...(process.env.AREAS_TRACE ? { trace } : {}),
    ...(attrib ? { attrib: attrib.result(site, rootViews(area)) } : {}),
  };
}
