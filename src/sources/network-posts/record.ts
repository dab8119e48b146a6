/**
 * Types of `/network-posts`, derived from the declaration (no mirrored interfaces).
 */
import type { Static } from '@sinclair/typebox';
import type { networkPostRecord } from '../../contract/records/network-posts.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { networkPosts } from '../../contract/endpoints/reviews.ts';

export type NetworkPost = Static<typeof networkPostRecord>;

/** A post as one answer gives it, before the query, the company and the cursor are added. */
export type PostBody = Omit<NetworkPost, 'query' | 'company_name' | 'company_id' | 'company_slug' | 'next_page_cursor'>;

/** `cursor` resumes where a record's next_page_cursor points. */
export type NetworkParams = ParamsOf<typeof networkPosts>;
