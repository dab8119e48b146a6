/**
 * The attribute vocabulary of the business database: the names a record's `attributes` carry, which
 * the `attributes` filter matches whole (case-insensitive). Scraped places carry the map's own "about"
 * names as the source writes them in the scrape's language (src/store/businesses/from-place.ts); with
 * the default language (`en`, no region) those are the names below. The natural-language query
 * (./query/attributes.ts) and the OSM import (./osm-attributes.ts) both speak this vocabulary, so a
 * search for `Wi-Fi` finds scraped and imported places alike.
 *
 * Every name is one the real map captures carry (../shared/fixtures/google-maps, the 2024 en search
 * page and the en place pages), except those under "not seen": OSM tags with no map counterpart in
 * the captures, named in the map's style.
 *
 * @example ATTRIBUTES.wifi // 'Wi-Fi'
 */
export const ATTRIBUTES = {
  // Service options
  outdoorSeating: 'Outdoor seating',
  takeout: 'Takeout',
  delivery: 'Delivery',
  noContactDelivery: 'No-contact delivery',
  sameDayDelivery: 'Same-day delivery',
  driveThrough: 'Drive-through',
  dineIn: 'Dine-in',
  curbsidePickup: 'Curbside pickup',
  inStorePickup: 'In-store pickup',
  inStoreShopping: 'In-store shopping',
  // Accessibility
  wheelchairEntrance: 'Wheelchair accessible entrance',
  wheelchairSeating: 'Wheelchair accessible seating',
  wheelchairRestroom: 'Wheelchair accessible restroom',
  wheelchairParking: 'Wheelchair accessible parking lot',
  // Amenities, children, pets, crowd
  wifi: 'Wi-Fi',
  restroom: 'Restroom',
  genderNeutralRestroom: 'Gender-neutral restroom',
  highChairs: 'High chairs',
  goodForKids: 'Good for kids',
  familyFriendly: 'Family-friendly',
  groups: 'Groups',
  lgbtqFriendly: 'LGBTQ+ friendly',
  dogsAllowed: 'Dogs allowed',
  dogsAllowedOutside: 'Dogs allowed outside',
  // Offerings, dining options
  alcohol: 'Alcohol',
  veganOptions: 'Vegan options',
  breakfast: 'Breakfast',
  brunch: 'Brunch',
  lunch: 'Lunch',
  dinner: 'Dinner',
  catering: 'Catering',
  // Planning, payments, parking
  reservations: 'Accepts reservations',
  creditCards: 'Credit cards',
  debitCards: 'Debit cards',
  mobilePayments: 'NFC mobile payments',
  parking: 'Parking',
  freeParkingLot: 'Free parking lot',
  freeStreetParking: 'Free street parking',
  freeParkingGarage: 'Free parking garage',
  // Not seen in the captures: OSM tags named in the map's style.
  freeWifi: 'Free Wi-Fi',
  limitedWheelchair: 'Limited wheelchair access',
  reservationsRequired: 'Reservations required',
  vegetarianOptions: 'Vegetarian options',
  noSmoking: 'No smoking',
  airConditioning: 'Air conditioning',
  changingTable: 'Changing table',
} as const;

export type AttributeName = (typeof ATTRIBUTES)[keyof typeof ATTRIBUTES];
