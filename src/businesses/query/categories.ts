/**
 * The category vocabulary of natural-language queries: what a person calls a kind of business, and
 * the record types that kind has in the database. Types come in two spellings: the map records'
 * categories (`Coffee shop`, `Dentist`, `Italian restaurant`) and the OSM import's, the iD tagging
 * schema's preset names (`Cafe`, `Pharmacy Counter`, `Christian Church`, src/businesses/osm-presets.ts)
 * or, with no preset, tag values in words (`Italian cuisine`; imports made before presets also
 * `Doctors`, `Doityourself`). A kind maps to all, so one query finds scraped and imported businesses alike.
 * Matching is case-blind (`Fast food` finds `Fast Food`).
 *
 * @example categoryAt(['coffee', 'shops', 'in'], 0) // { words: 2, label: 'coffee shop', types: ['Coffee shop', 'Cafe', ...] }
 */
import { phraseAt } from '../../lookups/words.ts';

/** phrases (singular, folded, `|`-separated) → types. The first phrase names the kind in parsed_query. */
const KINDS: [string, string[]][] = [
  ['coffee shop|coffee|coffeehouse|coffee house|espresso bar|cafe|coffee bar', ['Coffee shop', 'Cafe', 'Espresso bar', 'Coffee roasters', 'Coffee house', 'Coffeehouse']],
  ['restaurant|eatery|diner', ['Restaurant', 'Diner']],
  ['fast food|fast food restaurant', ['Fast food', 'Fast food restaurant']],
  ['bar', ['Bar', 'Cocktail bar', 'Wine bar', 'Pub']],
  ['pub', ['Pub']],
  ['bakery', ['Bakery']],
  ['pizzeria|pizza place|pizza', ['Pizza restaurant', 'Pizza cuisine', 'Pizza delivery', 'Pizza takeaway']],
  ['ice cream shop|ice cream|gelato', ['Ice cream shop', 'Ice cream']],
  ['dentist|dental clinic|dental office', ['Dentist', 'Dental clinic', 'Cosmetic dentist', 'Dental']],
  ['doctor|physician|medical practice', ['Doctor', 'Doctors', 'Medical clinic', 'General practitioner']],
  ['clinic|medical clinic', ['Clinic', 'Medical clinic']],
  ['hospital', ['Hospital', 'Hospital Grounds']],
  ['pharmacy|drugstore|chemist', ['Pharmacy', 'Drugstore', 'Chemist', 'Pharmacy Counter']],
  ['veterinarian|vet|veterinary clinic|animal hospital', ['Veterinarian', 'Veterinary', 'Animal hospital']],
  ['optician|optometrist', ['Optician', 'Optometrist']],
  ['hotel', ['Hotel']],
  ['hostel', ['Hostel']],
  ['guest house|bed and breakfast|b&b', ['Guest house', 'Bed & breakfast']],
  ['supermarket|grocery store|grocery|grocer', ['Supermarket', 'Grocery store', 'Greengrocer']],
  ['convenience store', ['Convenience store', 'Convenience']],
  ['butcher|butcher shop', ['Butcher shop', 'Butcher']],
  ['florist|flower shop', ['Florist']],
  ['bookstore|book shop|bookshop', ['Book store', 'Books', 'Bookstore']],
  ['clothing store|clothes shop|clothing shop|boutique', ['Clothing store', 'Clothes', 'Boutique']],
  ['shoe store|shoe shop', ['Shoe store', 'Shoes']],
  ['jewelry store|jeweler|jewellery shop|jeweller', ['Jewelry store', 'Jewelry']],
  ['hair salon|hairdresser|barber|barber shop|barbershop', ['Hair salon', 'Hairdresser', 'Barber shop']],
  ['beauty salon|spa|nail salon', ['Beauty salon', 'Beauty', 'Spa', 'Nail salon', 'Beauty Shop']],
  ['gym|fitness center|fitness centre|health club', ['Gym', 'Fitness center', 'Fitness centre', 'Gym / Fitness Center']],
  ['bank', ['Bank']],
  ['atm|cash machine', ['ATM', 'Atm']],
  ['gas station|petrol station|filling station|fuel station', ['Gas station', 'Fuel']],
  ['car repair|auto repair|auto repair shop|mechanic|garage', ['Auto repair shop', 'Car repair', 'Mechanic', 'Car Repair Shop']],
  ['car dealer|car dealership', ['Car dealer', 'Car', 'Car Dealership']],
  ['car wash', ['Car wash']],
  ['bicycle shop|bike shop', ['Bicycle store', 'Bicycle', 'Bicycle Shop']],
  ['lawyer|attorney|law firm|law office', ['Lawyer', 'Attorney', 'Law firm', 'Law Office']],
  ['accountant|accounting firm', ['Accountant', 'Accounting firm', 'Accountant Office']],
  ['real estate agent|real estate agency|estate agent|realtor', ['Real estate agency', 'Real estate agent', 'Estate agent', 'Real Estate Office']],
  ['insurance agency|insurance agent|insurance', ['Insurance agency', 'Insurance', 'Insurance Office']],
  ['travel agency|travel agent', ['Travel agency']],
  ['school', ['School', 'School Grounds']],
  ['kindergarten|daycare|preschool', ['Kindergarten', 'Day care center', 'Preschool', 'Preschool / Kindergarten Grounds', 'Nursery / Childcare']],
  ['library', ['Library']],
  ['post office', ['Post office']],
  ['church|place of worship|mosque|synagogue|temple', ['Church', 'Place of worship', 'Mosque', 'Synagogue', 'Temple', 'Christian Church', 'Muslim Mosque', 'Jewish Synagogue', 'Buddhist Temple', 'Hindu Temple']],
  ['cinema|movie theater|movie theatre', ['Movie theater', 'Cinema']],
  ['theater|theatre', ['Theater', 'Theatre', 'Performing arts theater']],
  ['museum', ['Museum']],
  ['nightclub|night club|club', ['Night club', 'Nightclub']],
  ['electronics store|electronics shop', ['Electronics store', 'Electronics']],
  ['phone shop|mobile phone shop|cell phone store', ['Cell phone store', 'Mobile phone', 'Mobile Phone Store']],
  ['hardware store|diy store', ['Hardware store', 'Hardware', 'Doityourself', 'DIY Store']],
  ['furniture store|furniture shop', ['Furniture store', 'Furniture']],
  ['laundry|laundromat|dry cleaner', ['Laundry', 'Laundromat', 'Dry cleaner', 'Dry cleaning']],
  ['wine shop|liquor store|off licence', ['Liquor store', 'Wine store', 'Wine', 'Alcohol', 'Wine Shop']],
  ['pet store|pet shop', ['Pet store', 'Pet supply store', 'Pet']],
  ['toy store|toy shop', ['Toy store', 'Toys']],
  ['gift shop', ['Gift shop', 'Gift']],
  ['tobacco shop|tobacconist', ['Tobacco shop', 'Tobacco']],
  ['deli|delicatessen', ['Deli', 'Delicatessen']],
  ['plumber', ['Plumber']],
  ['electrician', ['Electrician']],
  ['locksmith', ['Locksmith']],
  ['painter', ['Painter']],
  ['carpenter', ['Carpenter']],
  ['photographer', ['Photographer']],
  ['tattoo shop|tattoo parlor|tattoo studio', ['Tattoo shop', 'Tattoo', 'Tattoo Parlor']],
];

/** Cuisines: `<cuisine> restaurant(s)` and `<cuisine> food` find both spellings of a cuisine. */
const CUISINES = ['italian', 'french', 'mexican', 'chinese', 'japanese', 'thai', 'indian', 'vietnamese', 'korean', 'greek', 'turkish', 'lebanese',
  'spanish', 'american', 'seafood', 'sushi', 'burger', 'steak', 'vegan', 'vegetarian', 'mediterranean', 'middle eastern', 'ethiopian', 'peruvian',
  'brazilian', 'german', 'british', 'irish', 'moroccan', 'caribbean', 'kebab', 'ramen', 'bbq', 'barbecue', 'tapas', 'noodle', 'asian', 'regional'];

export interface Category {
  /** How many query words the phrase took. */
  words: number;
  /** The kind in words, for parsed_query readers. */
  label: string;
  types: string[];
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

const PHRASES = new Map<string, { label: string; types: string[] }>();
for (const [phrases, types] of KINDS) {
  const label = phrases.split('|')[0];
  for (const p of phrases.split('|')) PHRASES.set(p, { label, types });
}
/** Cuisines that are also a dish people ask for by itself (`sushi in tokyo`). */
const DISHES = new Set(['sushi', 'burger', 'kebab', 'ramen', 'tapas', 'bbq', 'barbecue', 'noodle', 'steak', 'seafood']);
for (const c of CUISINES) {
  const types = [`${cap(c)} restaurant`, `${cap(c)} cuisine`];
  for (const p of [`${c} restaurant`, `${c} food`, `${c} place`, ...(DISHES.has(c) ? [c, `${c} bar`, `${c} joint`] : [])]) PHRASES.set(p, { label: `${c} restaurant`, types });
}
/** Every phrase a category is said by (a check that other readings do not take one). */
export const CATEGORY_PHRASES: readonly string[] = [...PHRASES.keys()];
/** Longest phrase in words. */
const LONGEST = Math.max(...[...PHRASES.keys()].map((p) => p.split(' ').length));

/**
 * The longest category phrase at `words[i]`, its last word read as singular (`coffee shops`).
 * Only the last word of a phrase is a plural in English (`coffee shops`, not `coffees shops`).
 */
export function categoryAt(words: string[], i: number): Category | null {
  const hit = phraseAt(PHRASES, LONGEST, words, i);
  return hit && { words: hit.words, ...hit.value };
}
