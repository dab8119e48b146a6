/**
 * `trawl parse /delivery <file>`: records from one saved response, as the site served it: a
 * `/graphql/<operation>` answer (`{"data": ...}`, the store page feed or the item page) or a batch
 * array of answers, or a store page HTML with the menu its embedded state carries (`__NEXT_DATA__`,
 * Apollo cache or transport). The store id comes from the answer, else from the page's canonical
 * link; an HTML page without a store or menu (Cloudflare's challenge) is an error, never no items.
 *
 * @example parseCapture(readFileSync('feed.json', 'utf8'))[0].item_name
 */
import { isGraphqlAnswer, readGraphqlBatch } from '../_kit/graphql.ts';
import { stateBlobs } from '../_kit/page-state.ts';
import { canonicalStoreId } from '../_doordash/links.ts';
import { pageRecords, readMenu } from './parse.ts';
import { FEED, ITEM } from './plan.ts';
import type { MenuItemRecord } from './record.ts';

function fromHtml(text: string): MenuItemRecord[] {
  const storeId = canonicalStoreId(text);
  const blobs = stateBlobs(text);
  let page;
  try {
    page = readMenu(blobs, storeId);
  } catch {
    throw new Error('delivery: the page is not a store page with its state (no store, no menu items): a Cloudflare challenge page, or another page');
  }
  return pageRecords(page, storeId ?? '', storeId, null);
}

export function parseCapture(text: string): MenuItemRecord[] {
  if (/^\s*</.test(text)) return fromHtml(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('delivery: the file is neither JSON nor HTML');
  }
  if (!isGraphqlAnswer(json)) throw new Error('delivery: expected a store page feed or item page answer ({"data": ...}) or a batch of them, or a store page');
  // A batch (feed and item page of one store) is one page: the feed's store names the item page's items.
  const datas = readGraphqlBatch<Record<string, unknown>>(json);
  if (datas.some((d) => d[FEED] === null || d[ITEM] === null)) throw new Error('delivery: the answer says the site has no such store or item (null in place of the answer)');
  const page = readMenu(datas, null);
  const id = page.store?.id ?? null;
  return pageRecords(page, id ?? '', id, null);
}
