/** Builds the dashboard (web/ → dist/web/) with esbuild. Run: npm run build:web (npm start runs it first, with the server: npm run build). */
import { buildWeb } from '../src/http/web-build.ts';

const t = Date.now();
await buildWeb();
process.stdout.write(`dashboard built into dist/web in ${Date.now() - t} ms\n`);
