/**
 * `trawl businesses import FILE`: an OSM extract into the shared pool of the business database (open
 * data every account sees, docs/businesses.md). One pass: node coordinates are kept in memory (two
 * numbers per node) so that ways, which follow the nodes in an extract, get their centroid. Upserts
 * go in batches; os_ids are derived from `node/<id>` / `way/<id>`, so a re-run updates, never duplicates.
 *
 * @example await importOsm(store, 'monaco.osm.gz', { country: 'MC' })
 */
import type { Store } from '../store/contract.ts';
import { OPEN_DATA, type BusinessRecord } from '../store/businesses/contract.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { readOsm } from './osm-read.ts';
import { businessFromOsm } from './osm-business.ts';
import { loadPlacer } from './osm-place.ts';

export interface ImportSummary {
  file: string;
  objects: number;
  businesses: number;
  added: number;
  updated: number;
  /** Ways whose nodes were not in the file (cut at the extract's edge). */
  without_position: number;
  /** Businesses whose tags gave attributes (wheelchair, internet_access, ...). */
  with_attributes: number;
  seconds: number;
}

export async function importOsm(store: Store, file: string, o: { country?: string; now?: () => number; batch?: number; onProgress?: (s: ImportSummary) => void } = {}): Promise<ImportSummary> {
  const now = o.now ?? Date.now;
  const t0 = Date.now();
  const db = businessStoreOf(store);
  const placer = await loadPlacer();
  const coords = new Map<number, number>();
  const lats: number[] = [];
  const lons: number[] = [];
  const s: ImportSummary = { file, objects: 0, businesses: 0, added: 0, updated: 0, without_position: 0, with_attributes: 0, seconds: 0 };
  let batch: BusinessRecord[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const r = await db.upsertBusinesses(OPEN_DATA, batch, now());
    s.added += r.added; s.updated += r.updated; batch = [];
    o.onProgress?.(s);
  };
  for await (const e of readOsm(file)) {
    s.objects++;
    let b: BusinessRecord | null;
    if (e.type === 'node') {
      coords.set(e.id, lats.length);
      lats.push(e.lat); lons.push(e.lon);
      b = businessFromOsm('node', e.id, e.tags, e.lat, e.lon);
    } else {
      b = businessFromOsm('way', e.id, e.tags, null, null);
      if (b) {
        // Centroid of the way's distinct nodes (a closed way repeats its first node).
        let n = 0; let la = 0; let lo = 0;
        for (const ref of new Set(e.refs)) { const i = coords.get(ref); if (i !== undefined) { n++; la += lats[i]; lo += lons[i]; } }
        if (n) { b.latitude = la / n; b.longitude = lo / n; } else s.without_position++;
      }
    }
    if (!b) continue;
    placer.place(b, e.tags ?? {}, o.country);
    s.businesses++;
    if (b.attributes?.length) s.with_attributes++;
    batch.push(b);
    if (batch.length >= (o.batch ?? 1000)) await flush();
  }
  await flush();
  await db.optimize();
  s.seconds = Math.round((Date.now() - t0) / 100) / 10;
  return s;
}
