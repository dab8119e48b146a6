/**
 * CONSTRUCTED response samples in each engine's documented reverse format (written for the tests,
 * not captured from a running engine). Field names follow the engines' documentation: Nominatim
 * `format=jsonv2` with `addressdetails=1`, Photon's GeoJSON reverse answer, Pelias `/v1/reverse`.
 */

export const constructedNominatim = {
  place_id: 123456,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'way',
  osm_id: 987654,
  lat: '40.7624',
  lon: '-73.9737',
  place_rank: 30,
  category: 'building',
  type: 'yes',
  importance: 0,
  addresstype: 'building',
  name: '',
  display_name: '51, West 52nd Street, Manhattan, New York County, New York, 10019, United States',
  address: {
    house_number: '51',
    road: 'West 52nd Street',
    suburb: 'Manhattan',
    city: 'New York',
    county: 'New York County',
    state: 'New York',
    'ISO3166-2-lvl4': 'US-NY',
    postcode: '10019',
    country: 'United States',
    country_code: 'us',
  },
  boundingbox: ['40.7620', '40.7628', '-73.9741', '-73.9733'],
};

export const constructedNominatimNothing = { error: 'Unable to geocode' };

export const constructedPhoton = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [13.3777, 52.5163] },
      properties: {
        osm_type: 'W',
        osm_id: 518071791,
        osm_key: 'building',
        osm_value: 'yes',
        type: 'house',
        housenumber: '1',
        street: 'Pariser Platz',
        postcode: '10117',
        city: 'Berlin',
        district: 'Mitte',
        county: 'Berlin',
        state: 'Berlin',
        country: 'Germany',
        countrycode: 'DE',
        name: 'Brandenburger Tor',
        extent: [13.3772, 52.5165, 13.3781, 52.5161],
      },
    },
  ],
};

/** Photon answering with the street itself (no house nearby): the street name is in `name`. */
export const constructedPhotonStreet = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.2950, 48.8580] },
      properties: { osm_key: 'highway', osm_value: 'residential', type: 'street', name: 'Avenue Anatole France', postcode: '75007', city: 'Paris', countrycode: 'FR' },
    },
  ],
};

export const constructedPhotonNothing = { type: 'FeatureCollection', features: [] };

export const constructedPelias = {
  geocoding: {
    version: '0.2',
    attribution: 'http://127.0.0.1/attribution',
    query: { 'point.lat': -33.8568, 'point.lon': 151.2153, size: 1, private: false, lang: { name: 'English', iso6391: 'en' } },
    engine: { name: 'Pelias', author: 'Mapzen', version: '1.0' },
    timestamp: 1700000000000,
  },
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [151.2152, -33.8567] },
      properties: {
        id: 'au/nsw:constructed-1',
        gid: 'openaddresses:address:au/nsw:constructed-1',
        layer: 'address',
        source: 'openaddresses',
        name: '2 Macquarie Street',
        housenumber: '2',
        street: 'Macquarie Street',
        postalcode: '2000',
        confidence: 0.9,
        distance: 0.015,
        accuracy: 'point',
        country: 'Australia',
        country_a: 'AUS',
        region: 'New South Wales',
        region_a: 'NSW',
        county: 'Sydney',
        locality: 'Sydney',
        label: '2 Macquarie Street, Sydney, NSW, Australia',
      },
    },
  ],
  bbox: [151.2152, -33.8567, 151.2152, -33.8567],
};
