/**
 * The production build, in one process: the dashboard (web/ → dist/web/) and the service (src/ →
 * dist/server/, plain JavaScript), both with esbuild. Run: npm run build (npm start runs it first).
 */
import { buildWeb } from '../src/http/web-build.ts';
import { buildServer } from '../src/ops/build.ts';

const t = Date.now();
const [, { files }] = await Promise.all([buildWeb(), buildServer()]);
process.stdout.write(`dashboard built into dist/web, server into dist/server (${files} files) in ${Date.now() - t} ms\n`);
