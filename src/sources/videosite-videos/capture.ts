/**
 * `trawl parse /videosite-videos <file>`: the videos one saved answer holds.
 * Reads a browse answer of a channel tab (the tab it serves), a continuation answer, a resolve
 * answer (no videos: `[]`, it only names the channel), a channel page or any page with
 * `ytInitialData` (the 2021 legacy channel page, a results page: every video listed). Without the
 * request a continuation's channel fields are null.
 */
import { SourceError } from '../_kit/errors.ts';
import { collect, initialDataOf, channelOf, throwIfGated, throwIfRefused } from './page.ts';
import { continuationFound, jsonAnswer, recordsOf } from './parse.ts';
import type { VideositeVideo } from './record.ts';

const NONE = { channel_id: null, channel_name: null, channel_handle: null };

export function parseCapture(text: string): VideositeVideo[] {
  try {
    const t = text.replace(/^\uFEFF/, '').trimStart();
    let d: Record<string, any>;
    if (t.startsWith('{')) d = jsonAnswer(t, 'answer');
    else {
      const data = initialDataOf(t);
      if (!data) throw new Error('expected an InnerTube JSON answer or an HTML page with ytInitialData');
      throwIfRefused(data, 'page');
      d = data;
    }
    if (d.endpoint && !d.contents && !d.onResponseReceivedActions) return []; // resolve answer
    const cont = continuationFound(d);
    if (cont) return recordsOf(cont, NONE, '', false);
    if (!d.contents) throw new Error('expected a browse, continuation or resolve answer');
    throwIfGated(d, 'answer');
    const tabs = d.contents.twoColumnBrowseResultsRenderer?.tabs;
    const selected = Array.isArray(tabs) ? tabs.find((x: any) => x?.tabRenderer?.selected)?.tabRenderer : null;
    const shorts = /\/shorts$/.test(selected?.endpoint?.commandMetadata?.webCommandMetadata?.url ?? '');
    return recordsOf(collect(selected ? selected.content : d.contents), channelOf(d, NONE), '', shorts);
  } catch (e) {
    if (e instanceof SourceError && e.type !== 'layout_changed') throw e;
    throw new Error(`videosite-videos: ${e instanceof SourceError ? e.message : (e as Error).message}`);
  }
}
