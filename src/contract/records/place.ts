/**
 * The place record (interface 2.3) with the shapes the map parsers give its structured fields
 * (the interface leaves popular_times, posts, reviews_tags and order_links unshown). A value the
 * source lacks is null; enrichment fields appear only when asked.
 */
import { Type, literals, nullable } from '../dsl.ts';
import { placeEnrichmentFields } from './enrichments.ts';

const S = Type.String();
const NS = nullable(Type.String());
const NN = nullable(Type.Number());
const NI = nullable(Type.Integer());
const NB = nullable(Type.Boolean());
const url = (description: string) => nullable(Type.String({ description }));

/** Day name → time ranges joined by `,` (or `Closed`); day names keep the page's language. */
export const weekHours = Type.Record(Type.String(), Type.String(), { description: 'Day name → time ranges joined by a comma, or "Closed".' });

const popularHour = Type.Object({
  hour: Type.Integer({ description: 'Hour of the day, 0-23.' }),
  percentage: Type.Integer({ description: 'How busy, 0-100, relative to the busiest hour of the week.' }),
  title: Type.String({ description: 'The source\'s wording ("Usually not busy"); empty when it has none.' }),
  time: Type.String({ description: 'Short hour label as the source prints it ("6a").' }),
}, { additionalProperties: true });

export const popularDay = Type.Object({
  day: Type.Integer({ description: '1 = Monday ... 7 = Sunday.' }),
  day_text: S,
  popular_times: Type.Array(popularHour),
}, { additionalProperties: true });

export const orderLink = Type.Object({
  source: Type.String({ description: 'The provider\'s domain as the source names it ("wolt.com").' }),
  link: S,
}, { additionalProperties: true });

/** Keys `1` to `5` (stars) → number of reviews with that rating. */
export const reviewsPerScore = Type.Object({ 1: Type.Integer(), 2: Type.Integer(), 3: Type.Integer(), 4: Type.Integer(), 5: Type.Integer() },
  { additionalProperties: true, description: 'Stars (1 to 5) → number of reviews with that rating.' });

/** The 2.3 fields, in the interface's order (records are serialised in it). */
export const placeFields = {
  query: S, name: NS, place_id: NS, engine_id: nullable(Type.String({ description: 'Two hexadecimal parts joined by a colon.' })),
  full_address: NS, borough: NS, street: NS, postal_code: NS, city: NS, us_state: NS, state: NS, country: NS,
  country_code: nullable(Type.String({ description: 'Two letters.' })),
  area_service: NB, plus_code: NS, latitude: NN, longitude: NN, time_zone: nullable(Type.String({ description: 'IANA zone name.' })),
  popular_times: nullable(Type.Array(popularDay, { description: 'Per weekday (Monday first), how busy each hour usually is.' })),
  site: url('URL.'), logo: url('URL.'), photo: url('URL.'), street_view: url('URL.'), reviews_link: url('URL.'), location_link: url('URL.'),
  booking_appointment_link: url('URL.'), owner_link: url('URL.'),
  phone: NS, type: NS, category: NS, subtypes: nullable(Type.String({ description: 'Category names joined by ", ".' })),
  description: NS, located_in: NS, located_engine_id: NS,
  posts: nullable(Type.Array(Type.Unknown(), { description: 'Owner posts; not read yet (always null).' })),
  reviews_tags: nullable(Type.Array(S, { description: 'Topics reviewers mention.' })),
  order_links: nullable(Type.Array(orderLink, { description: 'Online ordering providers.' })),
  rating: NN, reviews: NI, photos_count: NI, cid: NS, reviews_id: NS, owner_id: NS,
  working_hours_old_format: nullable(Type.String({ description: 'Days joined by " | ".' })),
  working_hours: nullable(weekHours),
  other_hours: nullable(Type.Array(Type.Record(Type.String(), weekHours), { description: 'Single-key objects: service name (delivery, takeout, ...) → its week hours.' })),
  business_status: nullable(literals(['OPERATIONAL', 'CLOSED_TEMPORARILY', 'CLOSED_PERMANENTLY'] as const)),
  about: nullable(Type.Record(Type.String(), Type.Record(Type.String(), Type.Boolean()), { description: 'Group name → feature name → true/false.' })),
  range: nullable(Type.String({ description: 'Price level.' })),
  reviews_per_score: nullable(reviewsPerScore),
  reservation_links: nullable(Type.Array(S)), menu_link: url('URL.'), verified: NB, owner_title: NS,
};

export const placeRecord = Type.Object({ ...placeFields, ...placeEnrichmentFields },
  { additionalProperties: true, description: 'Place; enrichment fields only when asked.', $id: 'Place' });
