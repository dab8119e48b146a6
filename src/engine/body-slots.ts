/**
 * Shared memory that carries response bodies to the parse threads (issue 15). Posting a 191 KB map
 * search body as a string cost the API thread 0.26 ms (the structured clone of a 377 KB UTF-16
 * string, into freshly mapped memory) and the parse thread 0.35 ms to read; copying its code units
 * into a reused SharedArrayBuffer costs 0.01 ms here and 0.28 ms there (a quiet box; under load 1.6-3.4
 * ms there, 94-98 page faults: the thread's copy is a string over 128 KB, which V8 places on pages mapped
 * for it alone, issue 37 session 14, docs/performance/service.md). A slot is lent for one
 * job and taken back when the job ends; at most `max` are kept, each grown to the largest body it
 * carried (a body too large for MAX_CHARS travels as a string instead).
 *
 * A body the API thread has not decoded crosses as the fetched bytes (`lendBytes`, issue 37 session
 * 18, ../fetch/lazy-body.ts), which the thread decodes as the executor would have (`readSlot`): one
 * large string made for the page instead of two, and half the bytes copied for mostly-ASCII JSON.
 * Since session 21 the thread hands the adapter those bytes still undecoded (`slotResponse`), and a
 * JSON search answer is parsed from them (../fetch/lazy-body.ts jsonOfBody): no large string at all.
 *
 * @example
 *   const slot = slots.lend(body); // { buffer, chars } or null
 *   try { await run({ shared: slot ?? undefined }) } finally { if (slot) slots.give(slot) }
 *   readSlot(slot) // on the thread: the body's text
 */
import { decodeText } from '../fetch/decode.ts';
import { withBody, type Undecoded } from '../fetch/lazy-body.ts';


/** Bodies above this many characters (8 MiB of memory kept per slot) travel as strings. */
export const MAX_CHARS = 4 * 1024 * 1024;

export interface BodySlot {
  buffer: SharedArrayBuffer;
  /** UTF-16 code units of the body at the buffer's start (0 when it holds `bytes` instead). */
  chars: number;
  /** The fetched bytes' length, when the slot holds them, and how to decode them (decodeText). */
  bytes?: number;
  contentType?: string;
}

export class BodySlots {
  private free: SharedArrayBuffer[] = [];
  private lent = 0;

  constructor(private readonly max: number) {}

  /** `text` copied into a free slot (grown or made as needed), or null when none is left or it is too long. */
  lend(text: string): BodySlot | null {
    const buffer = this.take(text.length * 2);
    if (!buffer) return null;
    Buffer.from(buffer).write(text, 0, 'utf16le');
    return { buffer, chars: text.length };
  }

  /** The fetched bytes of an undecoded body copied into a free slot, or null as `lend`. */
  lendBytes(body: Undecoded): BodySlot | null {
    const buffer = this.take(body.bytes.length);
    if (!buffer) return null;
    body.bytes.copy(Buffer.from(buffer));
    return { buffer, chars: 0, bytes: body.bytes.length, contentType: body.contentType };
  }

  /** A free slot of at least `bytes` bytes, counted as lent, or null. */
  private take(bytes: number): SharedArrayBuffer | null {
    if (bytes > MAX_CHARS * 2 || (!this.free.length && this.lent >= this.max)) return null;
    let buffer = this.free.pop();
    if (!buffer || buffer.byteLength < bytes) buffer = new SharedArrayBuffer(2 ** Math.ceil(Math.log2(Math.max(bytes, 64 * 1024))));
    this.lent++;
    return buffer;
  }

  give(slot: BodySlot): void {
    this.lent--;
    this.free.push(slot.buffer);
  }
}

// V8's own decoder, which writes the string directly: ICU's route (decodeUtf8) is 0.1 ms faster on the
// API thread, but its 377 KB buffer comes fresh from a parse thread's allocator each time (about 65
// faults a map search page, issue 37 session 18). The text is the same (src/fetch/decode.test.ts).
const plainUtf8 = (buf: Buffer) => buf.toString('utf8');

/** The text of the body a slot carries (its fetched bytes decoded here, or its code units). */
export function readSlot(slot: BodySlot): string {
  if (slot.bytes !== undefined) return decodeText(Buffer.from(slot.buffer, 0, slot.bytes), slot.contentType, plainUtf8);
  return Buffer.from(slot.buffer, 0, slot.chars * 2).toString('utf16le');
}

/** `response` with the body a slot carries: fetched bytes stay bytes until read (../fetch/lazy-body.ts,
 *  decoded as readSlot does), so an adapter that parses them as JSON (jsonOfBody) makes no string of
 *  the whole page (issue 37 session 21); code units are read at once. Valid while the job runs: the
 *  slot is given back when it ends. */
export function slotResponse<T extends object>(response: T, slot: BodySlot): T & { body: string } {
  if (slot.bytes !== undefined) return withBody({ ...response }, Buffer.from(slot.buffer, 0, slot.bytes), slot.contentType, plainUtf8);
  return { ...response, body: readSlot(slot) };
}
