/**
 * Record of `GET /videosite-videos` (issue 10, decision 24): one video (or short) of a channel's
 * Videos or Shorts tab, in the order the site lists them (newest first). Extra fields are allowed.
 */
import { Type, nullable } from '../dsl.ts';

const S = (description: string) => Type.String({ description });
const NS = (description: string) => nullable(Type.String({ description }));
const NI = (description: string) => nullable(Type.Integer({ description }));

export const videositeVideoRecord = Type.Object({
  query: S('The query item as given.'),
  channel_id: NS('Channel id (`UC...`).'),
  channel_name: NS('Channel title.'),
  channel_handle: NS('Channel handle with its `@`, e.g. `@creativecommons`; null when the channel has none on the page.'),
  video_id: S('Video id (11 characters).'),
  title: NS('Video title.'),
  url: S('Watch link (`/watch?v=` for videos, `/shorts/` for shorts).'),
  thumbnail: NS('Largest thumbnail the listing offers.'),
  view_count: NI('Views as an integer, read from the listing text ("3.1k views" → 3100: as precise as the site shows it).'),
  views_text: NS('Views as the site shows them, e.g. `3.1k views`.'),
  published_text: NS('Relative age as shown, e.g. `13 days ago`; null for shorts (the tab shows none).'),
  length_seconds: NI('Duration in seconds from the thumbnail badge; null for shorts, live and upcoming videos.'),
  length_text: NS('Duration as shown, e.g. `1:07:34`.'),
  is_short: Type.Boolean({ description: 'True for an item of the Shorts tab.' }),
  next_page_cursor: NS('Cursor continuing after the page this video came from (decision 23); null on the last page.'),
}, { $id: 'VideositeVideo', additionalProperties: true, description: 'One video of a channel (videosite-videos).' });
