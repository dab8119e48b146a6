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
 * @example
 *   const slot = slots.lend(body); // { buffer, chars } or null
 *   try { await run({ shared: slot ?? undefined }) } finally { if (slot) slots.give(slot) }
 */

/** Bodies above this many characters (8 MiB of memory kept per slot) travel as strings. */
export const MAX_CHARS = 4 * 1024 * 1024;

export interface BodySlot { buffer: SharedArrayBuffer; chars: number }

export class BodySlots {
  private free: SharedArrayBuffer[] = [];
  private lent = 0;

  constructor(private readonly max: number) {}

  /** `text` copied into a free slot (grown or made as needed), or null when none is left or it is too long. */
  lend(text: string): BodySlot | null {
    if (text.length > MAX_CHARS || (!this.free.length && this.lent >= this.max)) return null;
    const bytes = text.length * 2;
    let buffer = this.free.pop();
    if (!buffer || buffer.byteLength < bytes) buffer = new SharedArrayBuffer(2 ** Math.ceil(Math.log2(Math.max(bytes, 64 * 1024))));
    Buffer.from(buffer).write(text, 0, 'utf16le');
    this.lent++;
    return { buffer, chars: text.length };
  }

  give(slot: BodySlot): void {
    this.lent--;
    this.free.push(slot.buffer);
  }
}
