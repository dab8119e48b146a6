/**
 * `trawl parse /network-posts <file>`: a saved response of this source → records. It reads what
 * the adapter reads: the logged-out company page (HTML) and the signed-in feed answer (voyager
 * JSON, normalized or plain), through the adapter's own parse.
 */
import type { Step } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import type { NetworkPost } from './record.ts';

const ctx = { query: '', params: {} };

/**
 * @example parseCapture(readFileSync('company.html', 'utf8'))[0].post_id
 */
export function parseCapture(text: string): NetworkPost[] {
  const html = /^\s*</.test(text);
  const step: Step = html
    ? { kind: 'page', url: '', expect: 'html', state: { resolveOnly: false } }
    : { kind: 'feed', url: '', expect: 'json', state: { slug: '', start: 0, token: null } };
  return parse(step, { status: 200, url: '', headers: {}, body: text }, ctx).records;
}
