/**
 * The state one search step carries (`step.state`, plain JSON): which view it fetches, which page,
 * and how much of the query's budget this branch of the cell tree may still fill.
 */
import type { Step } from '../_kit/adapter.ts';
import type { Box } from './cells.ts';
import { buildPb } from './pb.ts';

export interface SearchState {
  q: string;
  hl: string;
  gl: string | null;
  /** The area the camera shows. */
  view: Box;
  /** Sub-cells only: the quadrant this step owns; places outside it are another cell's. */
  cell: Box | null;
  offset: number;
  /** Places this view has kept so far (previous pages). */
  got: number;
  /** Places this view and its sub-cells may still collect. */
  budget: number;
  /** 0 for the query's own view, +1 per split. */
  depth: number;
  /** Coordinates ([lat, lng], 6 decimals) of the places this view kept so far (at most VIEW_CAP):
   *  where a split puts the quadrants, and how many of them each quadrant will find again. */
  pts: Array<[number, number]>;
  /** The query's own view only, when its camera was given (coordinates or a map URL): the area a
   *  split must cover even where the first places did not reach. */
  area: Box | null;
  /** The view cap this branch proved (a parent's probe found it); a view stopping there is split. */
  cap?: number;
  /** A view-cap prior from a monitor's previous runs (maps-search/prior.ts): caps proven, the highest
   *  count shown complete, this query's own view's count then. */
  prior?: { caps: number[]; floor: number; top?: number };
  /** A probe step: the state its view ended with (this step fetches one page of a sub-cell of it to
   *  tell whether its count was all of its places or the cap; maps-search/paging.ts). */
  probeOf?: SearchState & { t: number; allow: number;
    /** This probe is a deeper one: the first probe's page was full with no new place of its sub-cell. */
    deep?: boolean };
}

/**
 * @example
 *   searchUrl({ q: 'coffee', hl: 'en', gl: 'GR', ... }) // 'https://www.google.com/search?tbm=map&authuser=0&hl=en&gl=GR&q=coffee&pb=!4m12...'
 */
export function searchUrl(s: SearchState): string {
  const gl = s.gl ? `&gl=${encodeURIComponent(s.gl)}` : '';
  return `https://www.google.com/search?tbm=map&authuser=0&hl=${encodeURIComponent(s.hl)}${gl}&q=${encodeURIComponent(s.q)}&pb=${encodeURIComponent(buildPb(s.view, s.offset))}`;
}

export function searchStep(s: SearchState): Step {
  return { kind: 'search', url: searchUrl(s), expect: 'xssi-json', state: s as unknown as Record<string, unknown> };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBox = (v: unknown): v is Box =>
  !!v && typeof v === 'object' && isNum((v as Box).s) && isNum((v as Box).w) && isNum((v as Box).n) && isNum((v as Box).e);

/** Validates a step's state (it comes back from storage); null when it is not a search state. */
export function readState(v: unknown): SearchState | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as SearchState;
  if (typeof s.q !== 'string' || typeof s.hl !== 'string' || !isBox(s.view)) return null;
  if (!isNum(s.offset) || !isNum(s.got) || !isNum(s.budget) || !isNum(s.depth)) return null;
  if (s.cell !== null && !isBox(s.cell)) return null;
  if (s.area !== null && !isBox(s.area)) return null;
  if (!Array.isArray(s.pts) || !s.pts.every((p) => Array.isArray(p) && isNum(p[0]) && isNum(p[1]))) return null;
  if (s.gl !== null && typeof s.gl !== 'string') return null;
  if (s.cap !== undefined && !isNum(s.cap)) return null;
  if (s.prior !== undefined && (!s.prior || !Array.isArray(s.prior.caps) || !s.prior.caps.every(isNum) || !isNum(s.prior.floor) || (s.prior.top !== undefined && !isNum(s.prior.top)))) return null;
  if (s.probeOf !== undefined && (!readState(s.probeOf) || !isNum(s.probeOf.t) || !isNum(s.probeOf.allow) || s.probeOf.probeOf)) return null;
  return s;
}
