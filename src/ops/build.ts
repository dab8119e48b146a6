/**
 * The production build of the service: the command line (src/cli/main.ts) and everything it imports
 * from src/ bundled by esbuild into plain JavaScript under dist/server/, so `npm start` runs without
 * the TypeScript loader (start-up through tsx compiles every module on each start). Packages stay
 * outside the bundle (imported from node_modules as they are: native better-sqlite3, data files they
 * read next to themselves); lazily loaded modules stay lazy (code splitting, one file per dynamic
 * import). `npm start` builds first (prestart); dist/ is never committed.
 *
 * Files read next to a source module (SQL migrations, lookups data, dashboard sources, thread-pool
 * job modules) are found through `import.meta.url`: in the bundle it names the source file it was
 * written in, relative to the bundle, so they resolve exactly as under tsx.
 *
 * Run: npm run build (scripts/build.ts, also the dashboard).
 *
 * @example await buildServer(); // dist/server/trawl.js
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SERVER_OUT = join(ROOT, 'dist', 'server');

/** `import.meta.url` in each source file → the URL of that source file, found from the bundle's. */
function sourceUrls(outdir: string): Plugin {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        const rel = relative(outdir, args.path).split(sep).join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Bundles the service into `outdir` (emptied first; it must lie inside the repository, so that
 *  packages resolve from its node_modules). */
export async function buildServer(outdir = SERVER_OUT): Promise<{ entry: string; files: number }> {
  const { build } = await import('esbuild');
  await rm(outdir, { recursive: true, force: true });
  const r = await build({
    entryPoints: { trawl: join(ROOT, 'src', 'cli', 'main.ts') },
    outdir, bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external',
    // Every output file in one folder: the relative source URLs above hold for all of them.
    chunkNames: '[name]-[hash]', sourcemap: 'linked', logLevel: 'silent', legalComments: 'none', metafile: true,
    plugins: [sourceUrls(outdir)],
  });
  return { entry: join(outdir, 'trawl.js'), files: Object.keys(r.metafile!.outputs).length };
}
