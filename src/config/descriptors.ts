/**
 * The process's limit on open file descriptors (the soft RLIMIT_NOFILE), read from /proc on Linux;
 * null elsewhere. The API's connection cap is set below it, so that sockets never take the
 * descriptors the store, logs and task files need.
 *
 * @example descriptorLimit() // 20000
 */
import { readFileSync } from 'node:fs';

export function descriptorLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(read());
    return m && m[1] !== 'unlimited' ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * MAX_CONNECTIONS' default: four fifths of the descriptor limit (the rest for the store, logs, task
 * files and outgoing fetches), or 8,000 where the limit cannot be read; CONNECTION_RESERVE's: a
 * twentieth of that, at least 32.
 *
 * @example connectionDefaults(20_000) // { total: 16000, reserve: 800 }
 */
export function connectionDefaults(limit: number | null): { total: number; reserve: number } {
  const total = limit === null ? 8_000 : Math.max(64, Math.floor(limit * 0.8));
  return { total, reserve: reserveFor(total) };
}

/** CONNECTION_RESERVE's default for a total: a twentieth, at least 32 (none without a total). */
export const reserveFor = (total: number) => (total > 0 ? Math.max(32, Math.floor(total / 20)) : 0);
