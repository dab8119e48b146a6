/**
 * Constructed (not captured) map search bodies for tests and benches: the positions the real search
 * capture uses (`[0][1][i][14]` place nodes: name [11], engine_id [10], coordinates [9][2..3],
 * place_id [78]), filled with made-up places, so paging and covering can run on any field of places.
 *
 * @example constructedSearchBody('coffee', [{ i: 7, lat: 38, lng: 23.7 }]) // ")]}'\n[[\"coffee\",[...]]]"
 */
export interface ConstructedPlace { i: number; lat: number; lng: number }

export function constructedSearchBody(q: string | null, places: ConstructedPlace[]): string {
  const items: unknown[] = [[null, null, null, null, null, null, null, null, 'echo', 'ei', [q, 0]]];
  for (const p of places) {
    const node: unknown[] = [];
    node[11] = `P${p.i}`;
    node[10] = `0x1:0x${p.i.toString(16)}`;
    node[9] = [null, null, p.lat, p.lng];
    node[78] = `ChIJsimulated${String(p.i).padStart(8, '0')}`;
    const item: unknown[] = [];
    item[14] = node;
    items.push(item);
  }
  return ")]}'\n" + JSON.stringify([[q, items]]);
}
