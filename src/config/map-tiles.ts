/**
 * The dashboard's optional online basemap (MAP_TILE_URL, MAP_TILE_ATTRIBUTION): a raster tile
 * server in the usual {z}/{x}/{y} scheme. Unset, the map draws only the offline borders and
 * coastlines it ships; set, the page's content security policy admits images from that one origin
 * and no other.
 *
 * @example mapTilesFromEnv({ MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' })
 *   // { url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', origin: 'https://tile.openstreetmap.org', attribution: '' }
 */
export interface MapTiles { url: string; origin: string; attribution: string }

export function mapTilesFromEnv(env: NodeJS.ProcessEnv): MapTiles | undefined {
  const raw = env.MAP_TILE_URL?.trim();
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw.replace(/[{}]/g, ''));
  } catch {
    throw new Error(`MAP_TILE_URL must be an http(s) address such as https://tile.openstreetmap.org/{z}/{x}/{y}.png (got "${raw}")`);
  }
  if (!/^https?:$/.test(u.protocol) || !['{z}', '{x}', '{y}'].every((p) => raw.includes(p))) {
    throw new Error(`MAP_TILE_URL must be an http(s) address with {z}, {x} and {y} in it, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png (got "${raw}")`);
  }
  return { url: raw, origin: u.origin, attribution: env.MAP_TILE_ATTRIBUTION?.trim() ?? '' };
}
