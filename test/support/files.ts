/**
 * Every file under a folder (test support): the leak checks read a store's files as bytes.
 *
 * @example filesUnder(h.dir).map((f) => readFileSync(f, 'latin1')).join('\n')
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p)); else out.push(p);
  }
  return out;
}
