/**
 * Record of `GET /network-posts` (issue 10, decision 24): one post of a company page of the
 * professional network. A value the page lacks is null.
 */
import { Type, nullable } from '../dsl.ts';

const NS = nullable(Type.String());
const NI = nullable(Type.Integer());

export const networkPostRecord = Type.Object({
  query: Type.String({ description: 'The query item as given (a company page URL or id).' }),
  company_name: NS,
  company_id: nullable(Type.String({ description: 'Numeric organization id when the page shows it.' })),
  company_slug: nullable(Type.String({ description: 'The universal name in the company URL (/company/<slug>/).' })),
  post_id: Type.String({ description: 'Numeric activity id of the post (urn:li:activity:<id>).' }),
  post_url: NS,
  text: NS,
  posted_timestamp: nullable(Type.Integer({ description: 'Unix seconds. The activity id carries its creation time (its top 41 bits are milliseconds), so this is filled whenever the post id is known.' })),
  posted_datetime_utc: nullable(Type.String({ description: 'ISO 8601, UTC.' })),
  posted_ago: nullable(Type.String({ description: 'The relative age as the page shows it ("1w", "3 days ago").' })),
  reactions: NI,
  comments: NI,
  reposts: NI,
  images: Type.Array(Type.String(), { description: 'Image URLs of the post.' }),
  video_url: NS,
  edited: nullable(Type.Boolean({ description: 'The page marks the post as edited.' })),
  next_page_cursor: nullable(Type.String({ description: 'Given as `cursor`, resumes right after this chunk (a signed resume point); null after the last post.' })),
}, { $id: 'NetworkPost', additionalProperties: true, description: 'Professional-network company post.' });
