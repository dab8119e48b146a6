/**
 * Gives the event loop a turn while a long body is produced. A stored result is read synchronously
 * (SQLite) and a loopback or fast socket accepts writes at once, so a 250 MB body would otherwise go
 * out in one macrotask and stall every other request (issue 15: 0.7-1.1 s per 1000 x 500 result).
 * Every `everyChars` characters the iteration waits for `setImmediate`: timers, I/O and other
 * requests run in between. 0 turns it off (the bench's "before").
 *
 * @example for await (const s of yieldEvery(body, 256 * 1024)) res.write(s);
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export async function* yieldEvery<T extends string | Buffer>(body: AsyncIterable<T>, everyChars: number): AsyncGenerator<T> {
  if (!(everyChars > 0)) return yield* body;
  let since = 0;
  for await (const s of body) {
    yield s;
    since += s.length;
    if (since >= everyChars) {
      since = 0;
      await nextTurn();
    }
  }
}
