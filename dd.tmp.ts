import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { SOURCES } from '/work/wt/drift2/src/sources/registry.ts';
const [endpoint, dir, outFile] = process.argv.slice(2) as [string, string, string];
const row = SOURCES.find((r) => r.endpoint === endpoint)!;
const parse = await row.capture!.parse();
const out: Record<string, unknown> = {};
for (const f of readdirSync(dir)) {
  if (f.endsWith('.md')) continue;
  try { out[f] = await parse(readFileSync(`${dir}/${f}`, 'utf8'), ''); } catch (e) { out[f] = 'ERR ' + String(e).slice(0, 200); }
}
writeFileSync(outFile, JSON.stringify(out, null, 1));
console.log(Object.keys(out).length);
