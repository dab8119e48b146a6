/**
 * An OSM object's tags as business attributes, in the vocabulary scraped places carry (./attributes.ts),
 * so `filters.attributes` and "with wifi" find imported places too. Only what a tag says a place has
 * becomes an attribute: `wheelchair=no` or `delivery=no` add nothing (the filter cannot ask for an
 * absence). The table is docs/businesses.md's "OSM tags" table.
 *
 * @example attributesFromOsm({ internet_access: 'wlan', 'internet_access:fee': 'no', wheelchair: 'yes' })
 *   // ['Wi-Fi', 'Wheelchair accessible entrance', 'Free Wi-Fi']
 */
import { ATTRIBUTES as A, type AttributeName } from './attributes.ts';

/** [tag, values that give the attributes (`;`-separated lists match on any value), attributes]. */
const TAGS: [string, string[], AttributeName[]][] = [
  ['internet_access', ['wlan', 'yes', 'wifi'], [A.wifi]],
  ['wheelchair', ['yes', 'designated'], [A.wheelchairEntrance]],
  ['wheelchair', ['limited'], [A.limitedWheelchair]],
  ['toilets:wheelchair', ['yes', 'designated'], [A.wheelchairRestroom]],
  ['toilets', ['yes', 'customers'], [A.restroom]],
  ['toilets:unisex', ['yes'], [A.genderNeutralRestroom]],
  ['outdoor_seating', ['yes', 'terrace', 'patio', 'sidewalk', 'pedestrian_zone', 'garden', 'veranda', 'balcony'], [A.outdoorSeating]],
  ['indoor_seating', ['yes'], [A.dineIn]],
  ['takeaway', ['yes', 'only'], [A.takeout]],
  ['delivery', ['yes', 'only'], [A.delivery]],
  ['drive_through', ['yes'], [A.driveThrough]],
  ['reservation', ['yes', 'recommended', 'required'], [A.reservations]],
  ['reservation', ['required'], [A.reservationsRequired]],
  ['payment:credit_cards', ['yes'], [A.creditCards]],
  ['payment:debit_cards', ['yes'], [A.debitCards]],
  ['payment:contactless', ['yes'], [A.mobilePayments]],
  ['payment:apple_pay', ['yes'], [A.mobilePayments]],
  ['payment:google_pay', ['yes'], [A.mobilePayments]],
  ['dog', ['yes', 'leashed', 'unleashed'], [A.dogsAllowed]],
  ['dog', ['outside'], [A.dogsAllowedOutside]],
  ['highchair', ['yes'], [A.highChairs]],
  ['changing_table', ['yes'], [A.changingTable]],
  ['lgbtq', ['welcome', 'primary', 'only'], [A.lgbtqFriendly]],
  ['diet:vegan', ['yes', 'only'], [A.veganOptions]],
  ['diet:vegetarian', ['yes', 'only'], [A.vegetarianOptions]],
  ['smoking', ['no'], [A.noSmoking]],
  ['air_conditioning', ['yes'], [A.airConditioning]],
];

const values = (v: string | undefined) => (v ?? '').split(';').map((x) => x.trim().toLowerCase()).filter(Boolean);

export function attributesFromOsm(tags: Record<string, string>): AttributeName[] {
  const out = new Set<AttributeName>();
  for (const [tag, yes, names] of TAGS) {
    if (values(tags[tag]).some((v) => yes.includes(v))) for (const n of names) out.add(n);
  }
  // Beside Wi-Fi, not instead: the map holds "Free Wi-Fi" as the value of its Wi-Fi attribute, so
  // "Wi-Fi" is what finds both kinds of record.
  if (out.has(A.wifi) && values(tags['internet_access:fee']).includes('no')) out.add(A.freeWifi);
  return [...out];
}
