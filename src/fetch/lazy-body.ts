/**
 * A fetched body kept as its bytes until something reads it as text (issue 37 session 18). The
 * network hands the executor bytes; decoding a 191 KB map search answer on the API thread makes a
 * 377 KB string (a V8 large object: 94 fresh pages), and when the parse runs on a parse thread, that
 * thread makes a second one from the copy it is handed. A response whose `body` nothing on the API
 * thread reads (a JSON answer: detection reads the text of HTML only, ./detect.ts) crosses as the
 * bytes instead, and the thread decodes them (../engine/parse-thread.ts): one large string a page,
 * not two. `body` stays a plain string property to every reader: the first read decodes (decodeText,
 * the same text as before) and keeps the text.
 *
 * @example
 *   const res = withBody({ status: 200, url, headers }, plain, headers['content-type']);
 *   undecoded(res) // { bytes: plain, contentType } until res.body is read, then undefined
 */
import { decodeText, utf8Start } from './decode.ts';
import { parseJsonBytes } from '../sources/_kit/json-bytes.ts';
import { stripXssi, xssiEnd } from '../sources/_kit/xssi.ts';

export interface Undecoded { bytes: Buffer; contentType: string | undefined }

const RAW = Symbol('undecoded body');

type Lazy = { [RAW]?: Undecoded };

/** `o` with `body`: the text of `bytes` (decoded as `contentType` says) when first read. `utf8`: the
 *  UTF-8 decoder (decodeText's). */
export function withBody<T extends object>(o: T, bytes: Buffer, contentType: string | undefined, utf8?: (buf: Buffer) => string): T & { body: string } {
  let text: string | undefined;
  // Dropped once decoded: the bytes are not kept beside the text.
  let raw: Undecoded | undefined = { bytes, contentType };
  Object.defineProperty(o, RAW, { value: raw, configurable: true, writable: true });
  return Object.defineProperty(o, 'body', {
    enumerable: true,
    configurable: true,
    get(this: Lazy) {
      if (raw) text = decodeText(raw.bytes, raw.contentType, utf8);
      this[RAW] = raw = undefined;
      return text!;
    },
    set(this: Lazy, value: string) {
      text = value;
      this[RAW] = raw = undefined;
    },
  }) as T & { body: string };
}

/** The bytes of `res`'s body while nothing has read it as text, else undefined. */
export function undecoded(res: object): Undecoded | undefined {
  return (res as Lazy)[RAW];
}

/** `to` with the body of `from`, still undecoded if it was (a response rebuilt for another reader). */
export function bodyFrom<T extends object>(to: T, from: { body: string }): T & { body: string } {
  const raw = undecoded(from);
  return raw ? withBody(to, raw.bytes, raw.contentType) : Object.assign(to, { body: from.body });
}

/**
 * The JSON value of `res`'s body past an anti-XSSI line (../sources/_kit/xssi.ts), as
 * `JSON.parse(stripXssi(res.body))` gives it: from the bytes while the body is undecoded UTF-8, without
 * decoding it whole (../sources/_kit/json-bytes.ts: no large string a page, issue 37 session 21), else
 * from the text. The body stays undecoded. Throws a SyntaxError on a body that is not JSON.
 *
 * @example jsonOfBody(withBody({}, Buffer.from(")]}'\n[1]"), 'application/json')) // [1]
 */
export function jsonOfBody(res: { body: string }): unknown {
  const raw = undecoded(res);
  const start = raw ? utf8Start(raw.bytes, raw.contentType) : -1;
  return raw && start >= 0 ? parseJsonBytes(raw.bytes, xssiEnd(raw.bytes, start)) : JSON.parse(stripXssi(res.body));
}
