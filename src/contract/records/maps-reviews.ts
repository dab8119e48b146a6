/**
 * `/maps/reviews` records: one element per place, its reviews in `reviews_data` (the place fields
 * are those of the place record, 2.3). A value the source lacks is null.
 */
import { Type, nullable } from '../dsl.ts';
import { placeFields } from './place.ts';

const NS = nullable(Type.String());
const NI = nullable(Type.Integer());

export const mapsReviewRecord = Type.Object({
  review_id: NS, author_id: NS, author_title: NS, author_link: NS, author_image: NS, review_text: NS,
  review_rating: nullable(Type.Integer({ description: '1 to 5.' })),
  review_timestamp: nullable(Type.Integer({ description: 'Unix seconds.' })),
  review_datetime_utc: nullable(Type.String({ description: 'ISO 8601 UTC, e.g. 2026-02-27T10:02:02Z.' })),
  review_likes: NI, review_link: NS, review_img_urls: Type.Array(Type.String()),
  owner_answer: NS, owner_answer_timestamp: NI, owner_answer_timestamp_datetime_utc: NS,
  review_pagination_id: nullable(Type.String({ description: 'Continues after the page this review came from (the lastPaginationId parameter); null when none is left.' })),
  review_translated_text: nullable(Type.String({ description: 'The source\'s translation of review_text, when it offers one.' })),
  review_language: nullable(Type.String({ description: 'Language code of review_text.' })),
  review_updated_timestamp: nullable(Type.Integer({ description: 'Unix seconds of the last edit.' })),
  owner_answer_translated: NS,
  review_source: nullable(Type.String({ description: 'Where the review was written, as the source names it (e.g. "Google").' })),
}, { additionalProperties: true, description: 'One review.' });

const { query, name, full_address, engine_id, place_id, location_link, rating, reviews, reviews_id, reviews_link, reviews_per_score } = placeFields;

export const mapsReviewsRecord = Type.Object({
  query, name, full_address, engine_id, place_id, location_link, rating, reviews, reviews_id, reviews_link, reviews_per_score,
  reviews_data: Type.Array(mapsReviewRecord),
}, { additionalProperties: true, description: 'Map reviews of one place, its reviews in reviews_data.', $id: 'MapsReviews' });
