/**
 * The SQLite file holds key hashes, balances, webhook secrets and every result: it is created
 * readable and writable by its owner only (0600), whatever the umask; SQLite gives its -wal and -shm
 * files the database file's permissions. A file that already exists keeps the mode the operator gave it.
 */
import { closeSync, constants, openSync } from 'node:fs';

/** Creates `file` empty with mode 0600 unless it exists (SQLite then opens it as a new database). */
export function createPrivately(file: string): void {
  if (file === ':memory:' || file === '') return;
  try {
    closeSync(openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}
