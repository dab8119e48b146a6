/**
 * The production build (`npm start` runs dist/server/trawl.js, bundled by src/ops/build.ts) serves
 * like the sources do: migrations read from disk on a fresh data directory and again on the existing
 * one, lookups data files found from the bundle, a task's export file written on a worker thread,
 * the dashboard's assets. Built into its own folder under dist/ (packages resolve from node_modules).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, ROOT } from '../src/ops/build.ts';
import { startServe } from './support/serve-real.ts';

test('the bundled service starts, migrates, answers lookups, exports a task file off-thread, serves the dashboard, restarts on its data', { timeout: 180_000 }, async () => {
  const out = join(ROOT, 'dist', `.test-build-${process.pid}`);
  const data = mkdtempSync(join(tmpdir(), 'trawl-build-'));
  try {
    const { entry } = await buildServer(out);
    assert.ok(!/\.ts['"]\)/.test(readFileSync(entry, 'utf8').slice(0, 2000)), 'the entry imports no TypeScript');
    // Worker threads load built modules (jobs, the adapters the lookup thread imports), never a `.ts`
    // through the TypeScript loader.
    const built = readdirSync(out).filter((f) => f.endsWith('.js'));
    for (const m of ['url-delivery-export-export-job.js', 'url-lookups-lookup-job.js', 'url-lookups-geo-adapter.js']) assert.ok(built.includes(m), `${m} not in ${built.join(' ')}`);
    for (const f of built) assert.doesNotMatch(readFileSync(join(out, f), 'utf8'), /new URL\(["'][^"']*\.ts["'], new URL\(/, `${f} loads a TypeScript module by URL`);
    const s = await startServe({}, 60_000, entry, data);
    try {
      assert.equal((await fetch(`${s.url}/health`)).status, 200);
      const h = { 'x-api-key': s.key };
      const geo = await (await fetch(`${s.url}/reverse-geocoding?query=48.8584,2.2945&async=false`, { headers: h })).json() as any;
      assert.equal(geo.status, 'Success', JSON.stringify(geo).slice(0, 300));
      assert.equal(geo.data[0][0].country_code, 'FR');
      const sub = await (await fetch(`${s.url}/reverse-geocoding?query=40.7128,-74.0060&format=csv`, { headers: h })).json() as { id: string };
      let file = '';
      for (let i = 0; i < 300 && !file; i++) {
        const t = (await (await fetch(`${s.url}/tasks`, { headers: h })).json() as any).tasks.find((x: any) => x.request_id === sub.id || x.metadata?.queries?.includes('40.7128,-74.0060'));
        if (t?.status === 'SUCCESS') file = t.results[0].file_url;
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(file, 'the export task finished');
      const csv = await (await fetch(file)).text();
      assert.match(csv.split(/\r?\n/)[0], /query/);
      assert.match(csv, /New York/);
      const page = await fetch(`${s.url}/app`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<html/i);
    } finally {
      await s.close();
    }
    // Again on the same data directory: the migrations find everything applied.
    const again = await startServe({}, 60_000, entry, data);
    try {
      assert.equal((await fetch(`${again.url}/health`)).status, 200);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
});
