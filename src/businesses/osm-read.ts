/**
 * Reads an OpenStreetMap extract as a stream of nodes and ways (relations are not needed for points
 * of interest): `.osm.pbf` through osm-pbf-parser-node, `.osm` and `.osm.gz` (XML) through saxes.
 *
 * @example for await (const e of readOsm('monaco.osm.gz')) if (e.type === 'node') ...
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { SaxesParser } from 'saxes';

export type OsmEntity =
  | { type: 'node'; id: number; lat: number; lon: number; tags?: Record<string, string> }
  | { type: 'way'; id: number; refs: number[]; tags?: Record<string, string> };

export type OsmFormat = 'pbf' | 'xml' | 'xml.gz';

export function formatOf(file: string): OsmFormat | null {
  if (/\.osm\.pbf$|\.pbf$/i.test(file)) return 'pbf';
  if (/\.osm\.gz$/i.test(file)) return 'xml.gz';
  if (/\.osm$/i.test(file)) return 'xml';
  return null;
}

export async function* readOsm(file: string): AsyncGenerator<OsmEntity> {
  const format = formatOf(file);
  if (!format) throw new Error(`${file}: not an OSM extract (.osm.pbf, .osm or .osm.gz)`);
  if (format === 'pbf') {
    const { createOSMStream } = await import('osm-pbf-parser-node');
    for await (const item of createOSMStream(file, { withInfo: false })) {
      const e = item as { type?: string };
      if (e.type === 'node' || e.type === 'way') yield e as OsmEntity;
    }
    return;
  }
  yield* readXml(format === 'xml.gz' ? createReadStream(file).pipe(createGunzip()) : createReadStream(file));
}

/** OSM XML: `<node id lat lon>` and `<way id>` with `<tag k v>` and `<nd ref>` children. */
async function* readXml(input: NodeJS.ReadableStream): AsyncGenerator<OsmEntity> {
  const sax = new SaxesParser();
  const done: OsmEntity[] = [];
  let cur: (OsmEntity & { tags: Record<string, string> }) | null = null;
  let error: Error | null = null;
  sax.on('error', (e) => { error = e; });
  sax.on('opentag', (t) => {
    const a = t.attributes as Record<string, string>;
    if (t.name === 'node') cur = { type: 'node', id: Number(a.id), lat: Number(a.lat), lon: Number(a.lon), tags: {} };
    else if (t.name === 'way') cur = { type: 'way', id: Number(a.id), refs: [], tags: {} };
    else if (t.name === 'tag' && cur) cur.tags[a.k] = a.v;
    else if (t.name === 'nd' && cur?.type === 'way') cur.refs.push(Number(a.ref));
    else if (t.name === 'relation') cur = null;
  });
  sax.on('closetag', (t) => {
    if ((t.name === 'node' || t.name === 'way') && cur) { done.push(cur); cur = null; }
  });
  // Streaming decode: a chunk may end inside a multi-byte character.
  const text = new TextDecoder('utf-8');
  for await (const chunk of input) {
    sax.write(text.decode(chunk as Buffer, { stream: true }));
    if (error) throw error;
    yield* done.splice(0);
  }
  sax.close();
  if (error) throw error;
  yield* done.splice(0);
}
