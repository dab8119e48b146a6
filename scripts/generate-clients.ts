/**
 * Regenerates the TypeScript client's types (clients/typescript/src/schema.ts) from the OpenAPI
 * document with openapi-typescript. By default the document comes straight from the contract (no
 * server needed); `--url http://host:port` reads a running server's /openapi.json instead.
 *
 * Run: npm run clients:generate   (or: node bin/run-ts.js scripts/generate-clients.ts --url http://127.0.0.1:8080)
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../src/http/openapi.ts';
import { clientTypes, GENERATOR_BASE_URL } from './client-types.ts';

const at = process.argv.indexOf('--url');
const doc = at > 0 ? await (await fetch(`${process.argv[at + 1].replace(/\/$/, '')}/openapi.json`)).json() : openApiDocument(GENERATOR_BASE_URL);
const out = fileURLToPath(new URL('../clients/typescript/src/schema.ts', import.meta.url));
writeFileSync(out, await clientTypes(doc));
process.stdout.write(`wrote ${out}\n`);
