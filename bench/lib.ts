/**
 * Small helpers shared by the benchmarks: medians, sleeps, markdown tables, result files.
 *
 * @example median([3, 1, 2]) // 2
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function table(head: string[], rows: (string | number)[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function writeSection(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${text.trimEnd()}\n\n_Measured ${new Date().toISOString().slice(0, 10)} on this 2-core machine; compare only numbers from the same run._\n`);
}
