import { open } from 'node:fs/promises';
import type { ReadStream } from 'node:fs';

/**
 * Opens a file for sending: its size and its bytes from one descriptor. A task's file is replaced by
 * rename when a retry writes it again (delivery/export/atomic.ts); a size read by path and a stream
 * opened by path could then belong to two files, and a content-length that does not match the
 * stream leaves the download hanging or cut. Null when there is no such file.
 * @example const f = await openForSending(path); if (f) reply.header('content-length', String(f.size)).send(f.stream);
 */
export async function openForSending(path: string): Promise<{ size: number; stream: ReadStream } | null> {
  const fh = await open(path, 'r').catch(() => null);
  if (!fh) return null;
  try {
    const { size } = await fh.stat();
    // The stream owns the descriptor from here on and closes it when done or destroyed.
    return { size, stream: fh.createReadStream({ start: 0, end: Math.max(0, size - 1), autoClose: true }) };
  } catch (e) {
    await fh.close().catch(() => {});
    throw e;
  }
}
