import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { WriteStream } from 'node:fs';
import { ExportError } from './errors.ts';

/**
 * Writes a file so that its final name only ever holds a complete file: `write` fills a temporary
 * file in the same directory (same file system, so the rename is atomic), which is fsynced and then
 * renamed. On any failure the temporary file is removed and the final name is left untouched.
 * Returns what `write` returned plus the final size in bytes.
 * @example await writeAtomically('/data/t1.csv', async (tmp) => { await writeFile(tmp, 'a\r\n'); return {}; })
 */
export async function writeAtomically<T extends object>(
  filePath: string,
  write: (tmpPath: string) => Promise<T>,
): Promise<T & { bytes: number }> {
  const dir = dirname(filePath);
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw new ExportError('io', `cannot create directory ${dir}: ${(e as Error).message}`, { cause: e });
  }
  // Leading dot: directory listings and file servers that skip dotfiles never show a partial file.
  const tmp = join(dir, `.${basename(filePath)}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    const result = await write(tmp);
    const fh = await open(tmp, 'r+');
    try {
      await fh.sync(); // data on disk before the name points at it
    } finally {
      await fh.close();
    }
    await rename(tmp, filePath);
    await syncDir(dir);
    const { size } = await stat(filePath);
    return { ...result, bytes: size };
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    if (e instanceof ExportError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (typeof err?.code === 'string' && /^E[A-Z]+$/.test(err.code)) {
      throw new ExportError('io', `cannot write ${filePath}: ${err.message}`, { cause: e });
    }
    throw e;
  }
}

/**
 * Destroys a file stream and resolves once its descriptor is closed. `destroy()` alone returns
 * before a pending open() has finished, so a file removed right after could be re-created by it.
 * @example await closeQuietly(out); await rm(tmp, { force: true });
 */
export async function closeQuietly(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  stream.destroy();
  await closed;
}

// Makes the rename itself durable; not every platform allows opening a directory, so best effort.
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* best effort */
  }
}
