/**
 * Record of `GET /videosite-videos` (issue 10, decision 24): one video (or short) of a channel's
 * Videos or Shorts tab, in the order the site lists them (newest first). Extra fields are allowed.
 */
import { Type } from '../dsl.ts';
import { nint, nstr, record, str } from './fields.ts';

export const videositeVideoRecord = record('VideositeVideo', 'One video of a channel.', {
  query: str('The query item as given.'),
  channel_id: nstr('Channel id (`UC...`).'),
  channel_name: nstr('Channel title.'),
  channel_handle: nstr('Channel handle with its `@`, e.g. `@creativecommons`; null when the page shows none.'),
  video_id: str('Video id (11 characters).'),
  title: nstr('Video title.'),
  url: str('Watch link (`/watch?v=` for videos, `/shorts/` for shorts).'),
  thumbnail: nstr('Largest thumbnail the listing offers.'),
  view_count: nint('Views as an integer, read from the listing text ("3.1k views" → 3100: as precise as the site shows it).'),
  views_text: nstr('Views as the site shows them, e.g. `3.1k views`.'),
  published_text: nstr('Relative age as shown, e.g. `13 days ago`; null for shorts (the tab shows none).'),
  length_seconds: nint('Duration in seconds from the thumbnail badge; null for shorts, live and upcoming videos.'),
  length_text: nstr('Duration as shown, e.g. `1:07:34`.'),
  is_short: Type.Boolean({ description: 'True for an item of the Shorts tab.' }),
  next_page_cursor: nstr('Resume point: give it as `cursor` to continue after this chunk; null when the channel has no more. (`trawl parse` shows the site\'s own continuation token here.)'),
});
