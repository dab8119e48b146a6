/**
 * The dashboard's static assets: web/ bundled by esbuild into dist/web/ (app.js, app.css,
 * index.html). `npm start` builds them first (`npm run build:web`); a server that finds them missing
 * or older than their sources builds them itself on the first ask, so a fresh clone, `npx trawl
 * serve` and the tests always serve the current dashboard. Nothing is fetched at run time.
 *
 * @example const assets = await webAssets(); assets.get('app.js') // { body: Buffer, type: 'text/javascript; ...' }
 */
import { readFileSync, readdirSync, statSync, existsSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'web');
const OUT = join(ROOT, 'dist', 'web');
const JSON_TYPE = 'application/json; charset=utf-8';
const TYPES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8', 'index.html': 'text/html; charset=utf-8', 'favicon.svg': 'image/svg+xml',
  'world-110m.json': JSON_TYPE, 'world-50m.json': JSON_TYPE, 'us-states.json': JSON_TYPE,
};
/** The map's offline layers (TopoJSON, Natural Earth via world-atlas; US states, Census via us-atlas): copied as they are. */
const MAP_DATA: Record<string, string> = {
  'world-110m.json': 'world-atlas/countries-110m.json', 'world-50m.json': 'world-atlas/countries-50m.json', 'us-states.json': 'us-atlas/states-10m.json',
};

export interface Asset { body: Buffer; type: string }

function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** Sources the bundle depends on: web/ and the TypeScript client it is built on. */
const sourcesTime = () => Math.max(newest(SRC), newest(join(ROOT, 'clients', 'typescript', 'src')));

export async function buildWeb(): Promise<void> {
  const { build } = await import('esbuild');
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: [join(SRC, 'src', 'main.ts')], bundle: true, format: 'esm', target: 'es2022', minify: true, sourcemap: false,
    outfile: join(OUT, 'app.js'), logLevel: 'silent', legalComments: 'none',
  });
  copyFileSync(join(SRC, 'app.css'), join(OUT, 'app.css'));
  copyFileSync(join(SRC, 'index.html'), join(OUT, 'index.html'));
  copyFileSync(join(SRC, 'favicon.svg'), join(OUT, 'favicon.svg'));
  for (const [name, from] of Object.entries(MAP_DATA)) copyFileSync(require.resolve(from), join(OUT, name));
}

/** The served name of each asset. */
export const ASSET_NAMES = Object.keys(TYPES);

let loaded: Promise<Map<string, Asset>> | null = null;

/** The built assets, built first when missing or stale (once per process). */
export function webAssets(): Promise<Map<string, Asset>> {
  loaded ??= (async () => {
    const built = Object.keys(TYPES).every((f) => existsSync(join(OUT, f)));
    const stale = !built || (existsSync(SRC) && Math.min(...Object.keys(TYPES).map((f) => statSync(join(OUT, f)).mtimeMs)) < sourcesTime());
    if (stale) await buildWeb();
    return new Map(Object.entries(TYPES).map(([f, type]) => [f, { body: readFileSync(join(OUT, f)), type }]));
  })();
  loaded.catch(() => { loaded = null; });
  return loaded;
}
