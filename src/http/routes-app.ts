/**
 * The dashboard (`/app`, web/) and the landing page (`/`). Static and public: the pages hold no
 * data; the browser calls the public API with the key the user signs in with. The policy forbids
 * every origin but this one, so the key can only ever be sent here; the one exception is images
 * from the operator's map tile server (MAP_TILE_URL), which never see the key.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { webAssets, ASSET_NAMES } from './web-build.ts';
import type { MapTiles } from '../config/map-tiles.ts';

export const contentSecurityPolicy = (tiles?: MapTiles) =>
  `default-src 'self'; img-src 'self' data: blob:${tiles ? ` ${tiles.origin}` : ''}; connect-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const HEAD = '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/app/assets/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/app/assets/app.css">';

const landing = `<!doctype html><html lang="en"><head>${HEAD}<title>trawl</title></head>
<body class="landing"><main>
<p class="landing-brand"><img src="/app/assets/favicon.svg" alt="" width="40" height="40"> trawl</p>
<h1>Batches of queries in, structured records out.</h1>
<p class="lead">A self-hosted data-extraction API: map places, reviews, listings, contacts and lookups, billed per record, with a dashboard to run them and see the results on a table and a map.</p>
<p class="landing-actions"><a class="button primary" href="/app">Open the dashboard</a> <a class="button" href="/docs">API documentation</a></p>
<div class="grid landing-cards">
<div class="card"><h2>Run</h2><p>Pick an endpoint, paste queries (or a CSV column) and see the records as a table, on a map or as JSON.</p></div>
<div class="card"><h2>Follow</h2><p>Large requests run in the background with live progress; each failed query says why.</p></div>
<div class="card"><h2>Export</h2><p>Tasks write Excel, CSV, JSON or Parquet files to download.</p></div>
</div>
<p class="muted">Sign in to the dashboard with an API key: the first start of <span class="mono">trawl serve</span> prints one. Machine-readable: <a href="/openapi.json">OpenAPI document</a> · <a href="/health">health</a>.</p>
</main></body></html>`;

/** The dashboard's page, told where the operator's tile server is (a meta tag: the policy allows no inline script). */
function indexWith(body: Buffer, tiles?: MapTiles): Buffer {
  if (!tiles) return body;
  const meta = `<meta name="trawl-map-tiles" content="${escapeHtml(tiles.url)}" data-attribution="${escapeHtml(tiles.attribution)}">`;
  return Buffer.from(body.toString('utf8').replace('</head>', `${meta}\n</head>`));
}

export function registerAppRoutes(app: FastifyInstance, tiles?: MapTiles): void {
  const csp = contentSecurityPolicy(tiles);
  const secure = (reply: FastifyReply) => reply.header('content-security-policy', csp).header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer');
  app.get('/', async (_req, reply) => secure(reply).type('text/html; charset=utf-8').send(landing));
  app.get('/favicon.ico', async (_req, reply) => reply.redirect('/app/assets/favicon.svg', 301));
  const page = async (name: string, reply: FastifyReply) => {
    const a = (await webAssets()).get(name)!;
    return secure(reply).type(a.type).header('cache-control', name === 'index.html' ? 'no-cache' : 'public, max-age=300')
      .send(name === 'index.html' ? indexWith(a.body, tiles) : a.body);
  };
  app.get('/app', async (_req, reply) => page('index.html', reply));
  app.get('/app/', async (_req, reply) => page('index.html', reply));
  app.get('/app/assets/:name', async (req, reply) => {
    const { name } = req.params as { name: string };
    if (name === 'index.html' || !ASSET_NAMES.includes(name)) return reply.code(404).send({ error: true, errorMessage: `404 Not Found: no asset ${name.slice(0, 100)}` });
    return page(name, reply);
  });
}
