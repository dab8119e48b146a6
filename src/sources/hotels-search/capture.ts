/**
 * `trawl parse /hotels-search <file>`: a saved hotel answer → records. Accepted as served (the whole
 * `batchexecute` body: `)]}'`, chunk lengths, `wrb.fr` envelope) or as the decoded `AtySUc` payload,
 * search mode or a hotel's own answer.
 */
import { hotelsOfBody } from './parse.ts';
import type { HotelRecord } from './record.ts';

/** @example parseCapture(readFileSync('atysuc.txt', 'utf8')).length // 18 */
export function parseCapture(text: string): HotelRecord[] {
  const out = hotelsOfBody(text, '');
  if (out.length === 0) throw new Error('hotels-search: the answer holds no hotel entry (name, [lat, lng] and an id)');
  return out;
}
