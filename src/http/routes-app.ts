/**
 * The dashboard (`/app`, web/) and the landing page (`/`). Static and public: the pages hold no
 * data; the browser calls the public API with the key the user signs in with. The policy forbids
 * every origin but this one, so the key can only ever be sent here.
 */
import type { FastifyInstance } from 'fastify';
import { webAssets } from './web-build.ts';

const CSP = "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const landing = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>trawl</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:640px;margin:60px auto;padding:0 20px;color:#1b1f24}a{color:#2563eb}</style></head>
<body><h1>trawl</h1><p>Self-hostable data-extraction API: batches of queries in, structured records out.</p>
<ul><li><a href="/app">Dashboard</a> (sign in with an API key)</li><li><a href="/docs">API documentation</a></li>
<li><a href="/openapi.json">OpenAPI document</a></li><li><a href="/health">Health</a></li></ul></body></html>`;

export function registerAppRoutes(app: FastifyInstance): void {
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', CSP).send(landing));
  const page = async (name: string, reply: import('fastify').FastifyReply) => {
    const a = (await webAssets()).get(name)!;
    return reply.type(a.type).header('content-security-policy', CSP).header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer').header('cache-control', name === 'index.html' ? 'no-cache' : 'public, max-age=300').send(a.body);
  };
  app.get('/app', async (_req, reply) => page('index.html', reply));
  app.get('/app/', async (_req, reply) => page('index.html', reply));
  app.get('/app/assets/:name', async (req, reply) => {
    const { name } = req.params as { name: string };
    if (name !== 'app.js' && name !== 'app.css') return reply.code(404).send({ error: true, errorMessage: `404 Not Found: no asset ${name.slice(0, 100)}` });
    return page(name, reply);
  });
}
