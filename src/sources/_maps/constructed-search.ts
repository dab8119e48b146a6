/**
 * Constructed (not captured) map search bodies and place pages for tests and benches: the positions
 * the real captures use (`[0][1][i][14]` place nodes of a search, `[3][6]` of a place page's
 * `APP_INITIALIZATION_STATE`; in a node: name [11], engine_id [10], coordinates [9][2..3], place_id
 * [78], rating and reviews [4][7..8], price range [4][2], site [7][0], categories [13], address [39],
 * phone [178][0], per-score counts [175][3], the week's hours [203][0] and today's status line
 * [203][1][4][0]), filled with made-up places, so paging, covering and monitors run on any field of
 * places. Only the fields a place has are written: a bare `{ i, lat, lng }` is a name, ids and a point.
 *
 * @example constructedSearchBody('coffee', [{ i: 7, lat: 38, lng: 23.7 }]) // ")]}'\n[[\"coffee\",[...]]]"
 */
export interface ConstructedPlace {
  i: number;
  lat: number;
  lng: number;
  name?: string;
  rating?: number | null;
  reviews?: number;
  /** Reviews per score, 1 to 5 stars. */
  perScore?: [number, number, number, number, number];
  phone?: string | null;
  site?: string | null;
  category?: string;
  address?: string;
  range?: string | null;
  /** Monday first; a day's ranges as the page writes them (`9 AM–5 PM`), or null when closed. */
  hours?: Array<{ day: string; ranges: string | null }> | null;
  /** The status line shown instead of today's hours (`Temporarily closed`), or null. */
  statusLine?: string | null;
  /** A popular-times chart (one busy hour a day), as the product shows for places with enough visits. */
  popularTimes?: boolean;
}

/** The engine id and place id a constructed place `i` carries. */
export const constructedIds = (i: number) => ({ engineId: `0x1:0x${i.toString(16)}`, placeId: `ChIJsimulated${String(i).padStart(8, '0')}` });

/** One place node. */
export function constructedNode(p: ConstructedPlace): unknown[] {
  const node: unknown[] = [];
  const ids = constructedIds(p.i);
  node[11] = p.name ?? `P${p.i}`;
  node[10] = ids.engineId;
  node[9] = [null, null, p.lat, p.lng];
  node[78] = ids.placeId;
  if (p.rating !== undefined || p.reviews !== undefined || p.range !== undefined) {
    const n4: unknown[] = [];
    n4[2] = p.range ?? null;
    n4[7] = p.rating ?? null;
    n4[8] = p.reviews ?? null;
    node[4] = n4;
  }
  if (p.perScore) node[175] = [null, null, null, p.perScore];
  if (p.phone) node[178] = [[p.phone, [[p.phone, 2]]]];
  if (p.site) node[7] = [p.site];
  if (p.category) node[13] = [p.category];
  if (p.address) node[39] = p.address;
  if (p.hours || p.statusLine) {
    // Days numbered 1 = Monday; a closed day has no range and status 2.
    const days = (p.hours ?? []).map((d, k) => [d.day, k + 1, [2026, 1, 5 + k], d.ranges ? [[d.ranges, [[9, 0], [17, 0]]]] : [], null, d.ranges ? 1 : 2]);
    const today: unknown[] = [];
    if (p.statusLine) today[4] = [p.statusLine];
    node[203] = [days, today];
  }
  // `[84][0]`: one entry a day (1 = Monday), each with its hours as [hour, percent, title, .., time].
  if (p.popularTimes) node[84] = [[1, 2, 3, 4, 5, 6, 7].map((day) => [day, [[12, 60, 'Usually a little busy', null, null, null, '12 PM']]])];
  return node;
}

export function constructedSearchBody(q: string | null, places: ConstructedPlace[]): string {
  const items: unknown[] = [[null, null, null, null, null, null, null, null, 'echo', 'ei', [q, 0]]];
  for (const p of places) {
    const item: unknown[] = [];
    item[14] = constructedNode(p);
    items.push(item);
  }
  return ")]}'\n" + JSON.stringify([[q, items]]);
}

/** A place page: the place-details body as a string at `APP_INITIALIZATION_STATE[3][6]`. */
export function constructedPlacePage(p: ConstructedPlace): string {
  const details: unknown[] = [];
  details[6] = constructedNode(p);
  const state = [null, null, null, [null, null, null, null, null, null, ")]}'\n" + JSON.stringify(details)]];
  return `<!doctype html><html><head><script>window.APP_INITIALIZATION_STATE=${JSON.stringify(state)};</script></head><body></body></html>`;
}
