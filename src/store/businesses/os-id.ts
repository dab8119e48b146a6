/**
 * The stable id of a business (`os_id`): a hash of the strongest identity its source gives, so the
 * same place scraped again (or imported again) lands on the same row.
 *
 * @example osIdOf('place', 'ChIJN1t_tDeuEmsRUsoyG83frY4') // 'bz_5f0c...' (24 hex digits)
 * @example osIdOf('osm', 'node/123')
 */
import { createHash } from 'node:crypto';

export function osIdOf(kind: 'place' | 'engine' | 'osm', key: string): string {
  return 'bz_' + createHash('sha256').update(`${kind}:${key}`).digest('hex').slice(0, 24);
}
