/**
 * A readable docs page at `/docs`, rendered on the server from the OpenAPI document: no scripts, no
 * third-party assets (the service may run with no internet at all).
 */
const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function schemaText(s: any): string {
  if (!s) return '';
  if (s.enum) return s.enum.length > 12 ? `one of ${s.enum.length} values (${esc(s.enum.slice(0, 8).join(', '))}, ...)` : `one of ${esc(s.enum.join(', '))}`;
  if (s.type === 'array') return `array of ${schemaText(s.items)}`;
  const range = s.minimum !== undefined || s.maximum !== undefined ? ` ${s.minimum ?? ''}..${s.maximum ?? ''}` : '';
  return `${esc(s.type)}${range}`;
}

export function docsPage(doc: any): string {
  const ops: string[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const rows = (op.parameters ?? []).map((p: any) => `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <b>required</b>' : ''}</td><td>${schemaText(p.schema)}</td><td>${esc(p.schema?.default !== undefined ? JSON.stringify(p.schema.default) : '')}</td><td>${esc(p.description)}</td></tr>`).join('');
      const statuses = Object.entries<any>(op.responses ?? {}).map(([s, r]) => `<li><b>${esc(s)}</b> ${esc(r.description)}</li>`).join('');
      ops.push(`<section id="${esc(method + path)}"><h2><span class="m">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h2><p>${esc(op.description ?? op.summary)}</p>${rows ? `<table><tr><th>parameter</th><th>type</th><th>default</th><th>about</th></tr>${rows}</table>` : ''}<ul>${statuses}</ul></section>`);
    }
  }
  const toc = Object.keys(doc.paths).map((p) => `<li><a href="#${esc(Object.keys(doc.paths[p])[0] + p)}">${esc(p)}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
code{background:#f4f4f4;padding:0 3px}.m{background:#234;color:#fff;padding:2px 6px;border-radius:3px;font-size:13px}section{border-top:1px solid #ccc;margin-top:2em}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description)}</p><p>Authentication: header <code>X-API-KEY</code> (or <code>apiKey</code> query parameter, for testing). Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p><ul>${toc}</ul>${ops.join('\n')}</body></html>`;
}
