/**
 * DATA_MAX_BYTES (issue 15, bounded storage): once the store and the task files hold that much,
 * new work is refused with 503 before the disk fills. Only new work: accepted requests run to the
 * end and store their results (a cap is a margin, not a wall), reads go on, and the janitor's purges
 * bring the size back under the cap. The size is measured at most every CHECK_MS, so a submit
 * costs no disk scan.
 *
 * @example await assertRoomForWork(ctx); // throws AppError(503) at the cap
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from './context.ts';
import type { Store } from '../store/contract.ts';
import { AppError } from './errors.ts';

/** How long a measured size is trusted. */
export const CHECK_MS = 2_000;

const measured = new WeakMap<Store, { at: number; bytes: number }>();

/** Bytes of the export files of tasks (DATA_DIR/files); 0 when there are none. */
async function filesBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let n = 0;
  for (const name of names) n += await stat(join(dir, name)).then((s) => s.size, () => 0);
  return n;
}

/** The stored data's size: the store's own count plus the task files. */
export async function dataBytes(ctx: Pick<AppContext, 'store' | 'settings'>): Promise<number> {
  return ((await ctx.store.sizeBytes?.()) ?? 0) + (await filesBytes(join(ctx.settings.dataDir, 'files')));
}

export async function assertRoomForWork(ctx: Pick<AppContext, 'store' | 'settings' | 'now'>): Promise<void> {
  const max = ctx.settings.dataMaxBytes;
  if (!(max > 0)) return;
  const now = ctx.now();
  let m = measured.get(ctx.store);
  if (!m || now - m.at >= CHECK_MS || now < m.at) {
    m = { at: now, bytes: await dataBytes(ctx) };
    measured.set(ctx.store, m);
  }
  if (m.bytes >= max) {
    throw new AppError(503, `stored data is at its limit (${m.bytes} of DATA_MAX_BYTES=${max} bytes): new work is refused until expired results are purged; results already accepted are kept and readable`, { 'retry-after': '60' });
  }
}
