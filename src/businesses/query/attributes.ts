/**
 * Attribute phrases of natural-language queries: what a person asks a place to have (`with wifi`,
 * `wheelchair accessible`, `that deliver`, `accepts credit cards`) as the record attributes the
 * `attributes` filter matches (../attributes.ts: the names scraped and imported places carry).
 * The filter asks for every attribute given and cannot ask for an absence, so a negated phrase
 * (`without wifi`, `no delivery`) is answered as negated for the caller to report, never dropped.
 *
 * @example attributeAt(['with', 'free', 'wifi'], 1) // { words: 2, attributes: ['Wi-Fi'], negated: false }
 */
import { ATTRIBUTES as A, type AttributeName } from '../attributes.ts';
import { phraseAt } from '../../lookups/words.ts';

/**
 * phrases (folded, `|`-separated; a last word may also be said in the plural) → attributes. No
 * phrase may be the start of a category phrase (`pet` would take `pet stores`): categories are
 * read after attributes.
 */
const PHRASES: [string, AttributeName[]][] = [
  ['wifi|wi fi|free wifi|free wi fi|wireless internet|internet|internet access|free internet', [A.wifi]],
  ['outdoor seating|outside seating|outdoor dining|outdoor table|patio|terrace|al fresco|seating outside|seating outdoors', [A.outdoorSeating]],
  ['takeout|take out|takeaway|take away|to go|carry out|carryout', [A.takeout]],
  ['delivery|deliver|delivers|delivering|home delivery', [A.delivery]],
  ['no contact delivery|contactless delivery', [A.noContactDelivery]],
  ['same day delivery', [A.sameDayDelivery]],
  ['drive through|drive thru|drivethru|drivethrough', [A.driveThrough]],
  ['dine in|eat in|dining in|sit down|sit in', [A.dineIn]],
  ['curbside pickup|curbside|kerbside pickup', [A.curbsidePickup]],
  ['in store pickup', [A.inStorePickup]],
  ['in store shopping', [A.inStoreShopping]],
  ['wheelchair accessible|wheelchair access|wheelchair accessible entrance|wheelchair friendly|handicap accessible|disabled access|step free|step free access|accessible entrance',
    [A.wheelchairEntrance]],
  ['wheelchair accessible seating', [A.wheelchairSeating]],
  ['wheelchair accessible restroom|wheelchair accessible toilet|wheelchair accessible bathroom|accessible restroom|accessible toilet', [A.wheelchairRestroom]],
  ['wheelchair accessible parking|wheelchair accessible parking lot|disabled parking|handicap parking|accessible parking', [A.wheelchairParking]],
  ['limited wheelchair access|partly wheelchair accessible|partially wheelchair accessible', [A.limitedWheelchair]],
  ['restroom|toilet|bathroom|public restroom|public toilet|washroom', [A.restroom]],
  ['gender neutral restroom|gender neutral toilet|gender neutral bathroom|unisex restroom|unisex toilet', [A.genderNeutralRestroom]],
  ['high chair|highchair', [A.highChairs]],
  ['changing table|baby changing|baby changing table', [A.changingTable]],
  ['kid friendly|kids friendly|child friendly|children friendly|good for kids|good for children|for kids|for children', [A.goodForKids]],
  ['family friendly|good for families|families', [A.familyFriendly]],
  ['good for groups|groups', [A.groups]],
  ['lgbtq+ friendly|lgbtq friendly|lgbt friendly|lgbtq+|gay friendly|queer friendly', [A.lgbtqFriendly]],
  ['pet friendly|pets friendly|dog friendly|dogs friendly|dogs allowed|pets allowed|dogs welcome|pets welcome|allows dogs|allows pets|allowing dogs|allowing pets',
    [A.dogsAllowed]],
  ['dogs allowed outside', [A.dogsAllowedOutside]],
  ['alcohol|serves alcohol|serving alcohol|alcoholic drinks', [A.alcohol]],
  ['vegan options|vegan option|vegan friendly', [A.veganOptions]],
  ['vegetarian options|vegetarian option|vegetarian friendly', [A.vegetarianOptions]],
  ['breakfast', [A.breakfast]],
  ['brunch', [A.brunch]],
  ['lunch', [A.lunch]],
  ['dinner', [A.dinner]],
  ['catering', [A.catering]],
  ['reservation|reservations|accepts reservations|table booking|bookable|reservable', [A.reservations]],
  ['reservations required|reservation required|booking required', [A.reservationsRequired]],
  ['credit card|accepts cards|accepting cards|takes cards|card payment', [A.creditCards]],
  ['debit card', [A.debitCards]],
  ['contactless|contactless payment|nfc|nfc payment|mobile payment|apple pay|google pay|tap to pay', [A.mobilePayments]],
  ['parking', [A.parking]],
  ['free parking lot|free car park', [A.freeParkingLot]],
  ['free street parking', [A.freeStreetParking]],
  ['free parking garage', [A.freeParkingGarage]],
  ['no smoking|non smoking|smoke free|nonsmoking', [A.noSmoking]],
  ['air conditioning|air conditioned|aircon', [A.airConditioning]],
];

/** Verbs that may lead a phrase: `accepts credit cards`, `offers delivery`, `serves brunch`. */
const VERBS = new Set(['accepts', 'accepting', 'accept', 'takes', 'taking', 'take', 'offers', 'offering', 'offer', 'serves', 'serving', 'serve',
  'allows', 'allowing', 'allow', 'provides', 'providing', 'provide', 'does', 'do', 'doing', 'for']);
/** Words that negate a following phrase: `without wifi`, `doesn't deliver`, `no takeout`. */
const NEGATIONS = new Set(['without', 'no', 'not', 'never', 'doesnt', "doesn't", 'dont', "don't", 'lacking', 'missing']);

const TABLE = new Map<string, AttributeName[]>();
for (const [phrases, names] of PHRASES) for (const p of phrases.split('|')) TABLE.set(p, names);
/** Every phrase an attribute is said by (without a leading verb). */
export const ATTRIBUTE_PHRASES: readonly string[] = [...TABLE.keys()];
const LONGEST = Math.max(...[...TABLE.keys()].map((p) => p.split(' ').length));

export interface AttributeMatch {
  /** How many query words were read. */
  words: number;
  attributes: AttributeName[];
  /** Said as absent (`without wifi`): not a filter the body can hold. */
  negated: boolean;
}

/** The longest phrase exactly at `words[i]`. */
function attributePhraseAt(words: string[], i: number): { words: number; attributes: AttributeName[] } | null {
  const hit = phraseAt(TABLE, LONGEST, words, i);
  return hit && { words: hit.words, attributes: hit.value };
}

/** A phrase, after an optional leading verb, after an optional negation (`does not accept cards`). */
export function attributeAt(words: string[], i: number): AttributeMatch | null {
  // A phrase said whole comes first: `no smoking` and `no contact delivery` are attributes, not negations.
  const whole = attributePhraseAt(words, i);
  if (whole) return { ...whole, negated: false };
  let j = i;
  let negated = false;
  if (words[j] === 'does' || words[j] === 'do') j += NEGATIONS.has(words[j + 1]) ? 1 : 0;
  if (NEGATIONS.has(words[j])) { negated = true; j++; }
  if (words[j] === 'a' || words[j] === 'an' || words[j] === 'any') j++;
  if (VERBS.has(words[j])) j++;
  if (j === i) return null;
  const p = attributePhraseAt(words, j);
  return p ? { words: j - i + p.words, attributes: p.attributes, negated } : null;
}
