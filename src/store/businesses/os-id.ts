/**
 * The stable id of a business (`os_id`): a hash of the strongest identity its source gives, so the
 * same place scraped again (or imported again) lands on the same row.
 *
 * @example osIdOf('place', 'ChIJN1t_tDeuEmsRUsoyG83frY4') // 'bz_5f0c...' (24 hex digits)
 * @example osIdOf('osm', 'node/123')
 */
import * as crypto from 'node:crypto';

/** Node's one-shot digest (20.12+): a third of createHash's cost, which every captured place and
 *  imported object pays (issue 15); the same bytes either way. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex = oneShot ? (text: string) => oneShot('sha256', text, 'hex') : (text: string) => crypto.createHash('sha256').update(text).digest('hex');

export function osIdOf(kind: 'place' | 'engine' | 'osm', key: string): string {
  return 'bz_' + sha256Hex(`${kind}:${key}`).slice(0, 24);
}
