/**
 * Does a place's category (the map site's words, e.g. `Coffee shop`, `Fast food restaurant`) fit a
 * brand's OpenStreetMap tag (`amenity/cafe`, `amenity/fast_food`)? Rule: the tag value's words, or
 * one of its synonyms below, occur in the place's category or subtypes. The synonyms cover the tag
 * values whose map-site wording differs; a tag not listed still matches by its own words
 * (`supermarket`, `bakery`, `hotel`).
 */
const SYNONYMS: Record<string, string[]> = {
  cafe: ['coffee', 'cafe', 'tea house', 'espresso bar'], fast_food: ['fast food', 'hamburger', 'burger', 'pizza', 'sandwich', 'chicken', 'taco', 'donut', 'bagel'],
  restaurant: ['restaurant', 'diner', 'steak house', 'pizzeria'], ice_cream: ['ice cream', 'gelato', 'frozen yogurt'],
  fuel: ['gas station', 'petrol', 'fuel', 'filling station'], convenience: ['convenience', 'grocery', 'mini market', 'kiosk'],
  supermarket: ['supermarket', 'grocery', 'hypermarket'], pharmacy: ['pharmacy', 'drugstore', 'chemist'], chemist: ['drugstore', 'chemist', 'cosmetics'],
  clothes: ['clothing', 'clothes', 'apparel', 'fashion', 'boutique', 'outlet'], shoes: ['shoe', 'footwear'],
  doityourself: ['hardware', 'home improvement', 'diy'], hardware: ['hardware'], mobile_phone: ['cell phone', 'mobile phone', 'telecommunications'],
  electronics: ['electronics', 'computer', 'appliance'], car_repair: ['auto repair', 'car repair', 'tire', 'tyre', 'oil change', 'mechanic'],
  tyres: ['tire', 'tyre'], car: ['car dealer', 'auto dealer'], car_rental: ['car rental', 'rent a car'], fitness_centre: ['gym', 'fitness'],
  hairdresser: ['hair', 'barber'], beauty: ['beauty', 'nail', 'spa'], cosmetics: ['cosmetics', 'beauty supply', 'perfume'],
  optician: ['optician', 'optical', 'eyewear', 'eyeglasses'], books: ['book'], toys: ['toy'], sports: ['sporting', 'sports'], pet: ['pet'],
  furniture: ['furniture', 'home goods'], department_store: ['department store'], variety_store: ['variety', 'dollar', 'discount'],
  bank: ['bank'], atm: ['atm'], bureau_de_change: ['currency exchange'], money_lender: ['loan', 'pawn'], post_office: ['post office', 'shipping', 'courier'],
  hotel: ['hotel', 'inn', 'lodging', 'motel'], cinema: ['cinema', 'movie theater'], pub: ['pub', 'bar'], bar: ['bar', 'lounge'],
  jewelry: ['jewelry', 'jeweler', 'jewellery'], bakery: ['bakery', 'pastry'], alcohol: ['liquor', 'wine', 'alcohol'], car_wash: ['car wash'],
  charging_station: ['charging station', 'ev charging'], vending_machine: ['vending'], parcel_locker: ['parcel', 'locker'], travel_agency: ['travel agency'],
};

/** Lower-cased words of the place's category and subtypes, space-joined with separators around. */
export function placeCategoryText(r: Record<string, unknown>): string {
  const parts = [r.category, r.type, r.subtypes].filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  return parts.length ? ` ${parts.join(' , ').toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '')} ` : '';
}

/** Phrases that stand for an NSI category path (`brands/amenity/cafe` → cafe's). */
export function categoryPhrases(path: string, cuisine?: string): string[] {
  const value = path.split('/').at(-1) ?? '';
  const out = [value.replace(/_/g, ' '), ...(SYNONYMS[value] ?? [])];
  if (cuisine) for (const c of cuisine.split(';')) out.push(c.replace(/_/g, ' ').trim());
  return out.filter((p) => p.length > 1);
}

/** True when one of the phrases occurs as words in the place's category text. */
export function categoryFits(placeText: string, phrases: string[]): boolean {
  if (!placeText) return false;
  return phrases.some((p) => new RegExp(`(^|[^\\p{L}])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(placeText));
}
