/**
 * The exact test of a polygon geo filter as SQL both stores evaluate alike: the even-odd rule (a ray
 * cast from the point towards growing longitude crosses the polygon's edges an odd number of times).
 * Each edge's slope is computed here, once, in double precision; the SQL does the rest with the same
 * double arithmetic on SQLite and PostgreSQL, so a point near an edge falls on the same side on both.
 * Planar in degrees: edges are straight lines on the lat/lng grid, and a polygon across the 180th
 * meridian is not supported (split it).
 *
 * @example polygonSql([[0, 0], [0, 1], [1, 1]]).sql // '((CASE WHEN ... END) + ...) % 2 = 1'
 */

/** Edges with equal latitudes never cross a horizontal ray: they are left out. */
export function polygonSql(points: [number, number][]): { sql: string; args: number[] } {
  const terms: string[] = [];
  const args: number[] = [];
  const d = 'CAST(? AS DOUBLE PRECISION)';
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [latI, lngI] = points[i];
    const [latJ, lngJ] = points[j];
    if (latI === latJ) continue;
    const slope = (lngJ - lngI) / (latJ - latI);
    terms.push(`(CASE WHEN (b.latitude < ${d}) <> (b.latitude < ${d}) AND b.longitude < ${d} * (b.latitude - ${d}) + ${d} THEN 1 ELSE 0 END)`);
    args.push(latI, latJ, slope, latI, lngI);
  }
  if (!terms.length) return { sql: '1 = 0', args: [] };
  return { sql: `(${terms.join(' + ')}) % 2 = 1`, args };
}

/** The same rule in JS, for tests and for callers that hold records. */
export function inPolygon(lat: number, lng: number, points: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [latI, lngI] = points[i];
    const [latJ, lngJ] = points[j];
    if (latI === latJ) continue;
    if ((lat < latI) !== (lat < latJ) && lng < ((lngJ - lngI) / (latJ - latI)) * (lat - latI) + lngI) inside = !inside;
  }
  return inside;
}
