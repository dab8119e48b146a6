/**
 * A readable docs page at `/docs`, rendered on the server from the OpenAPI document: no scripts, no
 * third-party assets (the service may run with no internet at all). It says which data endpoints
 * this deployment serves, shows every operation's parameters and every record's fields, and renders
 * the descriptions' markdown (escaped first: see reader-text.ts).
 *
 * @example docsPage(openApiDocument(baseUrl, registry.endpoints()))
 */
import { escapeHtml as esc, markdownHtml as md } from './reader-text.ts';

type Schema = Record<string, any>;

/** The component a `$ref` names, or the schema itself. */
function deref(doc: any, s: Schema | undefined): Schema | undefined {
  const ref = s?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return s;
  return doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)];
}

function refName(s: Schema | undefined): string | null {
  return typeof s?.$ref === 'string' ? s.$ref.split('/').pop()! : null;
}

/** A schema in words: `string or null`, `array of integer`, `one of a, b`, `integer 1..500`. */
function schemaText(doc: any, s: Schema | undefined): string {
  if (!s) return 'any';
  const name = refName(s);
  if (name) return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  if (s.enum) return s.enum.length > 12 ? `one of ${s.enum.length} values (${esc(s.enum.slice(0, 8).join(', '))}, ...)` : `one of ${esc(s.enum.join(', '))}`;
  if (s.const !== undefined) return `<code>${esc(JSON.stringify(s.const))}</code>`;
  const alts = s.anyOf ?? s.oneOf;
  if (Array.isArray(alts)) return alts.map((a: Schema) => (a.type === 'null' ? 'null' : schemaText(doc, a))).join(' or ');
  if (s.type === 'array') return `array of ${schemaText(doc, s.items)}`;
  if (s.type === 'object' && s.patternProperties) return `map of ${schemaText(doc, Object.values<Schema>(s.patternProperties)[0])}`;
  if (!s.type) return 'any';
  const range = s.minimum !== undefined || s.maximum !== undefined ? ` ${s.minimum ?? ''}..${s.maximum ?? ''}` : '';
  return `${esc(s.type)}${range}`;
}

/** The object schema inside `s` (through `$ref`, a nullable union or an array), if any. */
function objectOf(doc: any, s: Schema | undefined): Schema | undefined {
  const d = deref(doc, s);
  if (!d) return undefined;
  if (d.type === 'object' && d.properties) return d;
  if (d.type === 'array') return objectOf(doc, d.items);
  const alts = d.anyOf ?? d.oneOf;
  if (Array.isArray(alts)) for (const a of alts) if (a.type !== 'null') return objectOf(doc, a);
  return undefined;
}

/** Rows `field | type | about` of an object schema, nested objects as `parent[].child` (two levels). */
function fieldRows(doc: any, s: Schema, prefix = '', depth = 0): string[] {
  const rows: string[] = [];
  for (const [name, f] of Object.entries<Schema>(s.properties ?? {})) {
    const path = `${prefix}${name}`;
    const about = f.description ?? deref(doc, f)?.description ?? '';
    rows.push(`<tr><td><code>${esc(path)}</code></td><td>${schemaText(doc, f)}</td><td>${md(about)}</td></tr>`);
    const inner = depth < 2 && !refName(f) ? objectOf(doc, f) : undefined;
    if (inner) rows.push(...fieldRows(doc, inner, `${path}${deref(doc, f)?.type === 'array' ? '[]' : ''}.`, depth + 1));
  }
  return rows;
}

function fieldTable(doc: any, s: Schema): string {
  const rows = fieldRows(doc, s);
  return rows.length ? `<table><tr><th>field</th><th>type</th><th>about</th></tr>${rows.join('')}</table>` : '';
}

/** The record schema of a data operation: `data` is an array (per query) of arrays of records. */
function recordOf(doc: any, op: any): Schema | undefined {
  return op.responses?.['200']?.content?.['application/json']?.schema?.properties?.data?.items?.items;
}

function operation(doc: any, path: string, method: string, op: any, anchored: Set<string>): string {
  const served = op['x-served'];
  const badge = served === true ? ' <span class="ok">served here</span>' : served === false ? ' <span class="no">not served here (501)</span>' : '';
  const params = (op.parameters ?? []).map((p: any) => `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <b>required</b>' : ''}</td><td>${schemaText(doc, p.schema)}</td><td>${esc(p.schema?.default !== undefined ? JSON.stringify(p.schema.default) : '')}</td><td>${md(p.description ?? '')}</td></tr>`).join('');
  const record = recordOf(doc, op);
  const recName = refName(record);
  const recObj = objectOf(doc, record);
  const recordPart = recObj
    ? `<h3>Record${recName ? ` <small${anchored.has(recName) ? '' : ` id="schema-${esc(recName)}"`}>${esc(recName)}</small>` : ''}</h3>${md(recObj.description ?? '')}${fieldTable(doc, recObj)}`
    : '';
  if (recName) anchored.add(recName);
  const statuses = Object.entries<any>(op.responses ?? {}).map(([s, r]) => `<li><b>${esc(s)}</b> ${md(r.description ?? '').replace(/^<p>|<\/p>$/g, '')}</li>`).join('');
  return `<section id="${esc(method + path)}"><h2><span class="m">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code>${badge}</h2>${md(op.description ?? op.summary ?? '')}`
    + `${params ? `<h3>Parameters</h3><table><tr><th>parameter</th><th>type</th><th>default</th><th>about</th></tr>${params}</table>` : ''}${recordPart}<h3>Answers</h3><ul>${statuses}</ul></section>`;
}

export function docsPage(doc: any): string {
  const ops: string[] = [];
  const served: string[] = [];
  const notServed: string[] = [];
  const anchored = new Set<string>();
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      ops.push(operation(doc, path, method, op, anchored));
      if (op['x-served'] === true) served.push(path);
      if (op['x-served'] === false) notServed.push(path);
    }
  }
  const link = (p: string) => `<a href="#${esc(Object.keys(doc.paths[p])[0] + p)}"><code>${esc(p)}</code></a>`;
  const serving = served.length || notServed.length
    ? `<h2>This deployment</h2><p>Serves ${served.length} data endpoint${served.length === 1 ? '' : 's'}: ${served.map(link).join(', ') || 'none'}.</p>`
      + (notServed.length ? `<p>Declared but not served here (they answer 501): ${notServed.map(link).join(', ')}.</p>` : '')
    : '';
  const toc = Object.keys(doc.paths).map((p) => `<li>${link(p)}</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
td p{margin:0}code{background:#f4f4f4;padding:0 3px}.m{background:#234;color:#fff;padding:2px 6px;border-radius:3px;font-size:13px}.ok,.no{font-size:12px;padding:1px 6px;border-radius:3px;vertical-align:middle}.ok{background:#dfd}.no{background:#eee;color:#666}section{border-top:1px solid #ccc;margin-top:2em}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>${md(doc.info.description ?? '')}<p>Authentication: header <code>X-API-KEY</code> (or <code>apiKey</code> query parameter, for testing). Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>${serving}<ul>${toc}</ul>${ops.join('\n')}</body></html>`;
}
