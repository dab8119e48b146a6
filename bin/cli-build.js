// The command line's build (dist/cli/): which one is current, whether it still matches the sources,
// and making a new one when it does not. Plain JavaScript, so checking costs no TypeScript loader.
//
// Each build goes into its own folder (dist/cli/b<time>-<pid>/) and dist/cli/current.json names the
// current one with the size and mtime of every file it was built from (esbuild's inputs, plus the
// build script and tsconfig). A build is fresh only while every one of those files is unchanged, so
// an edited, added-then-imported or deleted source always means a rebuild: a stale build never runs.
// Folders are never replaced in place, so a running `trawl serve` keeps loading its lazy chunks from
// its own folder while a newer build appears; an old folder is removed once no process that started
// from it is alive (each start leaves its pid under <folder>/.running/ until it exits).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** TRAWL_BUILD_DIR moves it (tests use their own; it must lie inside the repository, where packages resolve). */
export const CLI_DIST = process.env.TRAWL_BUILD_DIR ? resolve(process.env.TRAWL_BUILD_DIR) : join(ROOT, 'dist', 'cli');

/** The current build's record, or undefined when there is none (or it cannot be read). */
export function readStamp(dist = CLI_DIST) {
  try {
    return JSON.parse(readFileSync(join(dist, 'current.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** [path relative to root, size, mtimeMs] of a file, or undefined when it is gone. */
function fingerprint(root, file) {
  try {
    const s = statSync(resolve(root, file));
    return [file, s.size, s.mtimeMs];
  } catch {
    return undefined;
  }
}

/** True when every file the build was made from still has the size and mtime it had then. */
export function isFresh(stamp, root = ROOT) {
  if (!stamp || !Array.isArray(stamp.inputs) || !stamp.inputs.length) return false;
  for (const [file, size, mtime] of stamp.inputs) {
    const now = fingerprint(root, file);
    if (!now || now[1] !== size || now[2] !== mtime) return false;
  }
  return true;
}

/** Marks the build folder as in use by this process until it exits (see removeUnused). */
function markRunning(folder) {
  const mark = join(folder, '.running', String(process.pid));
  try {
    mkdirSync(join(folder, '.running'), { recursive: true });
    writeFileSync(mark, '');
    process.once('exit', () => { try { unlinkSync(mark); } catch { /* already gone */ } });
  } catch { /* a read-only install: nothing is ever removed there either */ }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};

/** Removes build folders other than `keep` that no live process started from. Folders younger than a
 *  minute stay: a concurrent build may still be writing one. */
export function removeUnused(keep, dist = CLI_DIST) {
  for (const name of readdirSync(dist)) {
    const folder = join(dist, name);
    if (name === keep || !name.startsWith('b')) continue;
    try {
      if (Date.now() - statSync(folder).mtimeMs < 60_000) continue;
      const running = existsSync(join(folder, '.running')) ? readdirSync(join(folder, '.running')) : [];
      if (running.some((pid) => alive(Number(pid)))) continue;
      rmSync(folder, { recursive: true, force: true });
    } catch { /* removed by another process meanwhile */ }
  }
}

/** Builds the command line into a new folder and makes it current; returns its entry's URL. */
export async function rebuild(dist = CLI_DIST) {
  const { register } = await import('tsx/esm/api');
  const unregister = register();
  const started = Date.now();
  const name = `b${started.toString(36)}-${process.pid}`;
  let inputs;
  try {
    const { buildServer } = await import('../src/ops/build.ts');
    ({ inputs } = await buildServer(join(dist, name)));
  } finally {
    await unregister();
  }
  const prints = inputs.map((f) => fingerprint(ROOT, relative(ROOT, f)));
  // A file edited while the build read it: this build may hold the old text, so it is not made current.
  if (prints.every((p) => p && p[2] < started)) {
    const tmp = join(dist, `current.json.${process.pid}`);
    writeFileSync(tmp, JSON.stringify({ dir: name, built: new Date(started).toISOString(), inputs: prints }));
    renameSync(tmp, join(dist, 'current.json'));
    removeUnused(name, dist);
  }
  return entryOf(name, dist);
}

function entryOf(name, dist) {
  markRunning(join(dist, name));
  return pathToFileURL(join(dist, name, 'trawl.js')).href;
}

/** The URL of a build made from the current sources: the current one when fresh, else a new one. */
export async function freshEntry(dist = CLI_DIST) {
  const stamp = readStamp(dist);
  if (isFresh(stamp) && existsSync(join(dist, stamp.dir, 'trawl.js'))) return entryOf(stamp.dir, dist);
  return rebuild(dist);
}
