/**
 * Exact US state and county for a point: Census county polygons from us-atlas (counties-10m),
 * looked up with which-polygon.
 *
 * County naming rule: the name GeoNames gives the same FIPS code, which follows the Census legal
 * names ("New York County", "Orleans Parish", "Miami-Dade County", "City of Richmond",
 * "Anchorage Municipality", "Yukon-Koyukuk Census Area"). Where GeoNames has no entry for a FIPS
 * code us-atlas still carries, the county is null: Connecticut's eight former counties were
 * replaced by planning regions in 2022 and Alaska's Valdez-Cordova was split in 2019, so their
 * names are no longer the county of a point there (the 2017 polygons shipped do not have the new
 * areas); DC keeps its name, "District of Columbia".
 */
import { readFileSync } from 'node:fs';
import { feature } from 'topojson-client';
import whichPolygon from 'which-polygon';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { FeatureCollection, Geometry } from 'geojson';
import { US_COUNTIES_JSON } from './data-files.ts';
import type { AdminNames } from './admin-names.ts';

export interface UsCounty {
  /** State name, e.g. `New York`. */
  state: string;
  /** USPS state code, e.g. `NY` (also the GeoNames admin1 code). */
  stateCode: string;
  /** County name by the rule above, e.g. `New York County`; null for a former county. */
  county: string | null;
  /** Five-digit county FIPS code. */
  fips: string;
}

export type UsCountyLookup = (lng: number, lat: number) => UsCounty | null;

/**
 * Builds the county lookup. States are the 50 states and DC; territories (PR, GU, VI, AS, MP) are
 * left out because country-coder reports them under their own ISO codes.
 *
 * @example
 *   const countyAt = loadUsCounties(loadAdminNames());
 *   countyAt(-87.63, 41.88); // { state: 'Illinois', stateCode: 'IL', county: 'Cook County', fips: '17031' }
 */
export function loadUsCounties(names: AdminNames, file = US_COUNTIES_JSON): UsCountyLookup {
  const topo = JSON.parse(readFileSync(file, 'utf8')) as Topology<{
    counties: GeometryCollection<{ name: string }>;
    states: GeometryCollection<{ name: string }>;
  }>;
  // State FIPS → USPS code, joined through the state names both data sets share.
  const codeByName = new Map<string, string>();
  for (const [code, name] of names.admin1) if (code.startsWith('US.')) codeByName.set(name, code.slice(3));
  const states = new Map<string, { name: string; code: string }>();
  for (const g of topo.objects.states.geometries) {
    const name = (g.properties as { name?: string } | undefined)?.name;
    const code = name === undefined ? undefined : codeByName.get(name);
    if (g.id !== undefined && name && code) states.set(String(g.id), { name, code });
  }
  const counties = topo.objects.counties;
  const kept = { ...counties, geometries: counties.geometries.filter((g) => states.has(String(g.id).slice(0, 2))) };
  const fc = feature(topo, kept) as FeatureCollection<Geometry, { name: string }>;
  const withProps = {
    type: 'FeatureCollection' as const,
    features: fc.features.map((f) => {
      const fips = String(f.id);
      const st = states.get(fips.slice(0, 2))!;
      const county = names.admin2.get(`US.${st.code}.${fips.slice(2)}`) ?? (st.code === 'DC' ? f.properties.name : null);
      const props: UsCounty = { state: st.name, stateCode: st.code, county, fips };
      return { type: 'Feature' as const, geometry: f.geometry, properties: props };
    }),
  };
  const query = whichPolygon<UsCounty>(withProps);
  return (lng, lat) => query([lng, lat]);
}
