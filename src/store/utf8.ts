/**
 * A records text's UTF-8 bytes, as `Buffer.from(text)` makes them, for less CPU (issue 37): on a map
 * search's 51.6 KB records text `Buffer.from` took 0.08-0.10 ms, about half of it measuring the
 * bytes' length before it encodes; encoding into memory kept for the purpose and copying the bytes
 * written into a buffer of their exact size took 0.05-0.06 ms (docs/performance/service.md, session 24).
 *
 * The copy is the caller's: nothing it keeps shares the scratch memory, which the next call
 * overwrites. A text that may not fit the scratch memory is encoded by `Buffer.from` (the stores get
 * the bytes of big results from the runner already, ../engine/encode-records.ts).
 *
 * @example utf8Of('[{"name":"Café"}]').equals(Buffer.from('[{"name":"Café"}]')) // true
 */

/** The scratch memory: any text up to a third of it fits (3 bytes a UTF-16 unit at most); up to all
 *  of it when mostly ASCII. A map search's 20 places are 52 KB. */
export const SCRATCH_BYTES = 256 * 1024;

const encoder = new TextEncoder();
let scratch: Buffer | undefined;

export function utf8Of(text: string): Buffer {
  if (text.length > SCRATCH_BYTES) return Buffer.from(text);
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  const { read, written } = encoder.encodeInto(text, scratch);
  // Short of the whole text: the scratch memory was full (many multi-byte characters).
  if (read < text.length) return Buffer.from(text);
  const out = Buffer.allocUnsafe(written);
  scratch.copy(out, 0, 0, written);
  return out;
}
