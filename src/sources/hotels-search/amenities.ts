/**
 * Amenity ids of the hotel answers (`[10]` of a hotel entry lists `[offered, id]` pairs) and their
 * names. Ids as publicly documented by the open-source `stays` client's filter captures; an id not
 * in this table is left out of `amenities` rather than shown as a number.
 */
export const AMENITY_NAMES: Readonly<Record<number, string>> = {
  1: 'Free parking', 4: 'Indoor pool', 5: 'Outdoor pool', 6: 'Pool', 7: 'Fitness centre', 8: 'Restaurant',
  9: 'Free breakfast', 10: 'Spa', 11: 'Beach access', 12: 'Kid-friendly', 15: 'Bar', 19: 'Pet-friendly',
  22: 'Room service', 35: 'Free Wi-Fi', 40: 'Air-conditioned', 52: 'All-inclusive available',
  53: 'Wheelchair accessible', 61: 'EV charger',
};
