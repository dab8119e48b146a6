/** Types of `/videosite-videos`, derived from the declarations (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { videositeVideoRecord } from '../../contract/records/videosite-videos.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { videositeVideos } from '../../contract/endpoints/listings.ts';

export type VideositeVideo = Static<typeof videositeVideoRecord>;

/** `shorts` true: the Shorts tab; false: the Videos tab. */
export type VideositeParams = ParamsOf<typeof videositeVideos>;

/** What every record repeats about its channel (carried from the first page to the next ones). */
export type ChannelInfo = Pick<VideositeVideo, 'channel_id' | 'channel_name' | 'channel_handle'>;
