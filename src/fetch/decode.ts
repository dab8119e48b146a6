/**
 * Response bodies: read with a byte limit, undo content-encoding (gzip, br, deflate), decode the
 * charset. The limit applies to the wire bytes and again to the decompressed bytes, so neither a
 * huge page nor a small zip bomb can fill memory.
 */
import { isAscii, isUtf8, transcode } from 'node:buffer';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { SourceError } from '../sources/_kit/errors.ts';
import { markFinal } from './retry.ts';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

/** The size-limit error; final: the same URL will be as large next time. */
export const tooLarge = (max: number, url: string) =>
  markFinal(new SourceError('network', `too large: response from ${new URL(url).host} exceeds ${max} bytes`));

/**
 * Undoes `content-encoding` (a comma list is applied right to left); identity passes through.
 *
 * @example
 *   await decompress(gzipped, 'gzip', 20e6, url)
 */
export async function decompress(buf: Buffer, encoding: string | undefined, maxBytes: number, url: string): Promise<Buffer> {
  if (!encoding) return buf;
  const codings = encoding.toLowerCase().split(',').map((s) => s.trim()).filter((s) => s && s !== 'identity');
  let out = buf;
  const opts = { maxOutputLength: maxBytes };
  for (const c of codings.reverse()) {
    try {
      if (c === 'gzip' || c === 'x-gzip') out = await gunzip(out, opts);
      else if (c === 'br') out = await brotli(out, opts);
      // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
      else if (c === 'deflate') out = (out[0] & 0x0f) === 8 && ((out[0] << 8) | out[1]) % 31 === 0 ? await inflate(out, opts) : await inflateRaw(out, opts);
      else throw new SourceError('network', `unsupported content-encoding ${c} from ${new URL(url).host}`);
    } catch (e) {
      if (e instanceof SourceError) throw e;
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxBytes, url);
      throw new SourceError('network', `bad ${c} body from ${new URL(url).host}: ${(e as Error).message}`, { cause: e });
    }
  }
  return out;
}

const WIN1252_LABELS = new Set(['windows-1252', 'cp1252', 'x-cp1252', 'latin1', 'iso-8859-1', 'iso8859-1', 'iso_8859-1', 'l1', 'cp819', 'ibm819', 'us-ascii', 'ascii']);
// Code points of bytes 0x80..0x9F in windows-1252 (undefined bytes map to themselves, as WHATWG says).
const C1 = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178];

/**
 * windows-1252 bytes → text.
 *
 * @example
 *   decodeWindows1252(Buffer.from([0x80])) // '€'
 */
export function decodeWindows1252(buf: Buffer): string {
  const s = buf.toString('latin1');
  return /[\x80-\x9f]/.test(s) ? s.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(C1[c.charCodeAt(0) - 0x80])) : s;
}

/** charset parameter of a content-type header. */
function headerCharset(contentType: string | undefined): string | undefined {
  const m = contentType && /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m ? m[1].toLowerCase() : undefined;
}

/** <meta charset> / http-equiv in the first KB of an HTML document. */
function sniffMetaCharset(buf: Buffer): string | undefined {
  const head = buf.subarray(0, 1024).toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return m ? m[1].toLowerCase() : undefined;
}

/** The charset `buf` decodes with (undefined: UTF-8) and where its text starts (past a BOM), as decodeText reads them. */
function charsetOf(buf: Buffer, contentType: string | undefined): { label: string | undefined; start: number } {
  let label: string | undefined;
  let start = 0;
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) (label = 'utf-8'), (start = 3);
  else if (buf[0] === 0xff && buf[1] === 0xfe) (label = 'utf-16le'), (start = 2);
  else if (buf[0] === 0xfe && buf[1] === 0xff) (label = 'utf-16be'), (start = 2);
  label ??= headerCharset(contentType) ?? (/html/i.test(contentType ?? '') || !contentType ? sniffMetaCharset(buf) : undefined);
  return { label: label === 'utf-8' || label === 'utf8' ? undefined : label, start };
}

/** Where the text of `buf` starts when decodeText reads it as UTF-8 (past a BOM), else -1.
 *  @example utf8Start(Buffer.from('\ufeff[1]'), 'application/json') // 3 */
export function utf8Start(buf: Buffer, contentType: string | undefined): number {
  const { label, start } = charsetOf(buf, contentType);
  return label ? -1 : start;
}

/**
 * Bytes → text: a BOM wins, then the header charset, then (for HTML) a <meta> charset, else UTF-8.
 * An unknown label falls back to UTF-8 rather than failing the request. `utf8`: the UTF-8 decoder
 * (decodeUtf8's text, by another route: a parse thread's, ../engine/body-slots.ts).
 *
 * @example
 *   decodeText(buf, 'text/html; charset=windows-1252')
 */
export function decodeText(buf: Buffer, contentType: string | undefined, utf8: (buf: Buffer) => string = decodeUtf8): string {
  const { label, start } = charsetOf(buf, contentType);
  if (!label) return utf8(start ? buf.subarray(start) : buf);
  // WHATWG maps latin1/iso-8859-1/windows-1252 to one decoder; Node 20's TextDecoder reads them as
  // plain ISO-8859-1 and gets 0x80-0x9F (€, “, ”, …) wrong.
  if (WIN1252_LABELS.has(label)) return decodeWindows1252(buf.subarray(start));
  try {
    return new TextDecoder(label).decode(buf.subarray(start));
  } catch {
    return buf.toString('utf8', start);
  }
}

/** Below this size the plain decoder is as fast; the ICU route pays off on large pages. */
const TRANSCODE_MIN = 16 * 1024;

/**
 * UTF-8 bytes → text, as `buf.toString('utf8')` returns it, by the fastest route for the content.
 * Pure ASCII is copied as Latin-1 (the same characters). Valid UTF-8 with non-ASCII text goes
 * through ICU's UTF-16 transcoder: on a 190 KB map response (2 % non-ASCII bytes) that is about
 * 0.1 ms faster than V8's decoder, which walks everything after the first non-ASCII byte byte by
 * byte. Invalid UTF-8 keeps V8's decoder, whose U+FFFD replacement is the WHATWG one.
 *
 * @example
 *   decodeUtf8(Buffer.from('café')) // 'café'
 */
export function decodeUtf8(buf: Buffer): string {
  if (buf.length < TRANSCODE_MIN) return buf.toString('utf8');
  if (isAscii(buf)) return buf.toString('latin1');
  if (!isUtf8(buf)) return buf.toString('utf8');
  try {
    return transcode(buf, 'utf8', 'ucs2').toString('ucs2');
  } catch {
    // A Node built without ICU converters.
    return buf.toString('utf8');
  }
}
