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
 * written in, relative to the bundle, so they resolve exactly as under tsx. Modules loaded by URL
 * (`new URL('./x.ts', import.meta.url)`: thread-pool jobs, and the adapters and functions the lookup
 * thread imports) are the exception: each is an entry of its own, and its URL becomes that of its
 * built `.js`, so worker threads load plain JavaScript and the bundle needs no TypeScript loader.
 *
 * Run: npm run build (scripts/build.ts, also the dashboard).
 *
 * @example await buildServer(); // dist/server/trawl.js
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SERVER_OUT = join(ROOT, 'dist', 'server');

const SRC = join(ROOT, 'src');

/** The bundle's name for a module loaded by URL: its path under src/, flattened
 *  (`lookups/lookup-job.ts` → `url-lookups-lookup-job`), so every output stays in one folder. */
const builtName = (file: string) => `url-${relative(SRC, file).replace(/\.ts$/, '').split(sep).join('-')}`;

/** `new URL('./x.ts', import.meta.url)`, a module loaded by URL, or any other `import.meta.url`. */
const META_URL = /new URL\((['"])(\.{1,2}\/[^'"]*\.ts)\1, import\.meta\.url\)|import\.meta\.url/g;

/** Every module a source file (tests excluded) names by URL (that exists: doc comments show examples). */
async function urlModules(): Promise<string[]> {
  const found = new Set<string>();
  for (const f of await readdir(SRC, { recursive: true })) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const file = join(SRC, f);
    for (const m of (await readFile(file, 'utf8')).matchAll(META_URL)) if (m[2] && existsSync(resolve(dirname(file), m[2]))) found.add(resolve(dirname(file), m[2]));
  }
  return [...found];
}

/** `import.meta.url` in each source file → the URL of that source file, found from the bundle's;
 *  a module loaded by URL → its built entry beside the bundle. */
function sourceUrls(outdir: string, byUrl: Set<string>): Plugin {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        const rel = relative(outdir, args.path).split(sep).join('/');
        const contents = text.replace(META_URL, (all, _q, module?: string) => {
          if (!module) return `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
          const file = resolve(dirname(args.path), module);
          return byUrl.has(file) ? `new URL(${JSON.stringify(`./${builtName(file)}.js`)}, import.meta.url)` : all;
        });
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Bundles the service into `outdir` (emptied first; it must lie inside the repository, so that
 *  packages resolve from its node_modules). */
/** Besides the bundled modules, the files a build's output depends on (bin/cli-build.js re-checks them). */
const BUILD_INPUTS = ['src/ops/build.ts', 'tsconfig.json', 'package.json'];

export async function buildServer(outdir = SERVER_OUT): Promise<{ entry: string; files: number; inputs: string[] }> {
  const { build } = await import('esbuild');
  await rm(outdir, { recursive: true, force: true });
  const byUrl = await urlModules();
  const r = await build({
    entryPoints: { trawl: join(ROOT, 'src', 'cli', 'main.ts'), ...Object.fromEntries(byUrl.map((f) => [builtName(f), f])) },
    absWorkingDir: ROOT, outdir, bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external',
    // Every output file in one folder: the relative source URLs above hold for all of them.
    chunkNames: '[name]-[hash]', sourcemap: 'linked', logLevel: 'silent', legalComments: 'none', metafile: true,
    plugins: [sourceUrls(outdir, new Set(byUrl))],
  });
  const inputs = [...new Set([...Object.keys(r.metafile!.inputs), ...BUILD_INPUTS])].map((f) => join(ROOT, f));
  return { entry: join(outdir, 'trawl.js'), files: Object.keys(r.metafile!.outputs).length, inputs };
}
