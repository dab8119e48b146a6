/**
 * The place record of interface section 2.3: exactly its fields, in its order. A value the source
 * does not hold is `null` (decision 22), never an empty string or a guessed default.
 */

/** One hour of the "popular times" chart. */
export interface PopularHour {
  hour: number;
  /** 0..100, relative to the busiest hour of the week. */
  percentage: number;
  /** The source's own wording ("Usually not busy"), '' when it has none. */
  title: string;
  /** Short hour label as the source prints it ("6a"). */
  time: string;
}

export interface PopularDay {
  /** 1 = Monday ... 7 = Sunday (the source's numbering). */
  day: number;
  day_text: string;
  popular_times: PopularHour[];
}

export interface OrderLink {
  /** The provider's domain as the source names it ("wolt.com"). */
  source: string;
  link: string;
}

/** Day name → time ranges joined by `,` (or `Closed`). Keys keep the page's language. */
export type WeekHours = Record<string, string>;

export interface PlaceRecord {
  query: string | null;
  name: string | null;
  place_id: string | null;
  engine_id: string | null;
  full_address: string | null;
  borough: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  us_state: string | null;
  state: string | null;
  country: string | null;
  country_code: string | null;
  area_service: boolean | null;
  plus_code: string | null;
  latitude: number | null;
  longitude: number | null;
  time_zone: string | null;
  popular_times: PopularDay[] | null;
  site: string | null;
  logo: string | null;
  photo: string | null;
  street_view: string | null;
  reviews_link: string | null;
  location_link: string | null;
  booking_appointment_link: string | null;
  owner_link: string | null;
  phone: string | null;
  type: string | null;
  category: string | null;
  subtypes: string | null;
  description: string | null;
  located_in: string | null;
  located_engine_id: string | null;
  posts: unknown[] | null;
  reviews_tags: string[] | null;
  order_links: OrderLink[] | null;
  rating: number | null;
  reviews: number | null;
  photos_count: number | null;
  cid: string | null;
  reviews_id: string | null;
  owner_id: string | null;
  working_hours_old_format: string | null;
  working_hours: WeekHours | null;
  other_hours: Array<Record<string, WeekHours>> | null;
  business_status: 'OPERATIONAL' | 'CLOSED_TEMPORARILY' | 'CLOSED_PERMANENTLY' | null;
  about: Record<string, Record<string, boolean>> | null;
  range: string | null;
  reviews_per_score: Record<'1' | '2' | '3' | '4' | '5', number> | null;
  reservation_links: string[] | null;
  menu_link: string | null;
  verified: boolean | null;
  owner_title: string | null;
}

/**
 * The 2.3 field names in the interface's order (the order records are serialised in).
 *
 * @example
 *   placeRecordFields[0] // 'query'
 */
export const placeRecordFields = [
  'query', 'name', 'place_id', 'engine_id', 'full_address', 'borough', 'street', 'postal_code', 'city',
  'us_state', 'state', 'country', 'country_code', 'area_service', 'plus_code', 'latitude', 'longitude',
  'time_zone', 'popular_times', 'site', 'logo', 'photo', 'street_view', 'reviews_link', 'location_link',
  'booking_appointment_link', 'owner_link', 'phone', 'type', 'category', 'subtypes', 'description',
  'located_in', 'located_engine_id', 'posts', 'reviews_tags', 'order_links', 'rating', 'reviews',
  'photos_count', 'cid', 'reviews_id', 'owner_id', 'working_hours_old_format', 'working_hours',
  'other_hours', 'business_status', 'about', 'range', 'reviews_per_score', 'reservation_links',
  'menu_link', 'verified', 'owner_title',
] as const satisfies ReadonlyArray<keyof PlaceRecord>;

export type PlaceField = (typeof placeRecordFields)[number];

/**
 * What each field may hold besides null; used by tests and by anyone validating records.
 * 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array'.
 */
export const placeFieldKinds: Record<PlaceField, 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array'> = {
  query: 'string', name: 'string', place_id: 'string', engine_id: 'string', full_address: 'string',
  borough: 'string', street: 'string', postal_code: 'string', city: 'string', us_state: 'string',
  state: 'string', country: 'string', country_code: 'string', area_service: 'boolean', plus_code: 'string',
  latitude: 'number', longitude: 'number', time_zone: 'string', popular_times: 'array', site: 'string',
  logo: 'string', photo: 'string', street_view: 'string', reviews_link: 'string', location_link: 'string',
  booking_appointment_link: 'string', owner_link: 'string', phone: 'string', type: 'string',
  category: 'string', subtypes: 'string', description: 'string', located_in: 'string',
  located_engine_id: 'string', posts: 'array', reviews_tags: 'array', order_links: 'array',
  rating: 'number', reviews: 'integer', photos_count: 'integer', cid: 'string', reviews_id: 'string',
  owner_id: 'string', working_hours_old_format: 'string', working_hours: 'object', other_hours: 'array',
  business_status: 'string', about: 'object', range: 'string', reviews_per_score: 'object',
  reservation_links: 'array', menu_link: 'string', verified: 'boolean', owner_title: 'string',
};

/**
 * Returns the names of fields whose value is neither null nor of the kind 2.3 gives; [] when the
 * record is well-formed. Missing or extra keys are reported too.
 *
 * @example
 *   recordShapeErrors(rec) // [] or ['rating: expected number, got "4.2"']
 */
export function recordShapeErrors(rec: Record<string, unknown>): string[] {
  const errs: string[] = [];
  for (const f of placeRecordFields) {
    if (!(f in rec)) { errs.push(`${f}: missing`); continue; }
    const v = rec[f];
    if (v === null) continue;
    const kind = placeFieldKinds[f];
    const ok =
      kind === 'array' ? Array.isArray(v)
      : kind === 'object' ? typeof v === 'object' && !Array.isArray(v)
      : kind === 'integer' ? Number.isInteger(v)
      : kind === 'number' ? typeof v === 'number' && Number.isFinite(v)
      : typeof v === kind;
    if (!ok) errs.push(`${f}: expected ${kind}, got ${JSON.stringify(v)?.slice(0, 60)}`);
  }
  return errs;
}
