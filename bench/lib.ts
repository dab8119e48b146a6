/**
 * Small helpers shared by the benchmarks: medians, sleeps, markdown tables, result files.
 *
 * @example median([3, 1, 2]) // 2
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
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

/** Starts a node process that prints one JSON line when ready; resolves with it. */
export function startProcess(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; info: any }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) => resolve({ child, info: JSON.parse(l) }));
    child.once('exit', (c) => reject(new Error(`exited ${c}`)));
  });
}

/** SIGTERM and wait for the exit. */
export async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** A /proc/<pid>/status memory field in kB (VmRSS now, VmHWM peak). */
export function rssKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`));
  return m ? Number(m[1]) : 0;
}

