/**
 * What `business_only` leaves out: places a map search answers that are not businesses (parks,
 * neighbourhoods, landmarks, transit stops), by their type as the map records and the OSM import
 * spell it, lower-cased as `business_types.type_k` holds it. A row with at least one other type is a
 * business (a park cafe is one); a row with no type at all is not.
 */
export const NOT_BUSINESS_TYPES = [
  'park', 'national park', 'state park', 'city park', 'dog park', 'playground', 'garden', 'botanical garden', 'nature preserve', 'hiking area',
  'beach', 'lake', 'river', 'mountain peak', 'island', 'forest', 'neighborhood', 'neighbourhood', 'locality', 'city', 'town', 'village',
  'sublocality', 'administrative area', 'country', 'route', 'street', 'intersection', 'bridge', 'square', 'plaza', 'monument', 'memorial',
  'historical landmark', 'historical place', 'tourist attraction', 'scenic spot', 'observation deck', 'fountain', 'statue', 'sculpture',
  'bus stop', 'bus station', 'train station', 'subway station', 'transit station', 'tram stop', 'light rail station', 'ferry terminal',
  'parking', 'parking lot', 'parking garage', 'public bathroom', 'toilets', 'bench', 'cemetery', 'viewpoint', 'picnic ground', 'public square',
] as const;
