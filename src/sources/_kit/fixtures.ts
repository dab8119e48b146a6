/**
 * Where the real captured responses live at test and bench time: `FIXTURES_DIR`, by default
 * `../shared/fixtures` beside the repository (resolved against the repository root, so the cwd does
 * not matter). They are read there and never copied into the repository.
 *
 * @example
 *   const file = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
 *   test('...', { skip: fixtureMissing(file) }, () => { ... });
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const FIXTURES_ROOT = resolve(repoRoot, process.env.FIXTURES_DIR ?? '../shared/fixtures');

export function fixturePath(...parts: string[]): string {
  return resolve(FIXTURES_ROOT, ...parts);
}

/** `false` when the path exists, else the message a skipped test prints. */
export function fixtureMissing(path: string): string | false {
  return existsSync(path) ? false : `fixtures not found at ${path} (set FIXTURES_DIR)`;
}
