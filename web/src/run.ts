/**
 * Run: one form per data endpoint, generated from /openapi.json (parameters, enums, defaults, help).
 * Queries are one a line, or a column of pasted CSV. Small jobs run synchronously and show their
 * records here; bigger ones run asynchronously and open the request's page, which follows progress.
 */
import { h, mount, errorBox } from './dom.ts';
import { api, openApi, type OpenApiOp, type OpenApiParam } from './api.ts';
import { failedQueries, resultViewer } from './viewer.ts';
import { endpointInfo, labelOf, rich } from './help.ts';
import { estimate, money } from './estimate.ts';
import { areaPicker } from './area-picker.ts';
import type { AreaCoverage, PriceList } from '../../clients/typescript/src/client.ts';

/** Up to this many queries run synchronously in "auto" mode. */
export const SYNC_UP_TO = 20;
const SKIP = new Set(['query', 'async', 'ui', 'apiKey']);

export interface DataOp { path: string; op: OpenApiOp }
export async function dataEndpoints(): Promise<DataOp[]> {
  const doc = await openApi();
  return Object.entries(doc.paths).flatMap(([path, item]) => {
    const op = item.get;
    if (!op || /Alias\d*$/.test(op.operationId ?? '') || !op.parameters?.some((p) => p.name === 'query' && p.schema.type === 'array')) return [];
    return [{ path, op }];
  });
}

/** RFC 4180-ish: quoted fields with doubled quotes, commas or semicolons, one record a line. */
export function csvColumn(text: string, column: string): string[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (!lines.length) return [];
  const sep = (lines[0].match(/;/g)?.length ?? 0) > (lines[0].match(/,/g)?.length ?? 0) ? ';' : ',';
  const split = (l: string) => {
    const out: string[] = [];
    let cur = '';
    let q = false;
    for (let i = 0; i < l.length; i++) {
      const ch = l[i];
      if (q) { if (ch === '"' && l[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') q = false; else cur += ch; }
      else if (ch === '"') q = true;
      else if (ch === sep) { out.push(cur); cur = ''; }
      else cur += ch;
    }
    out.push(cur);
    return out.map((x) => x.trim());
  };
  const header = split(lines[0]);
  let idx = header.findIndex((x) => x.toLowerCase() === column.trim().toLowerCase());
  let rows = lines.slice(1);
  if (idx < 0) {
    // No such header: a column number (1-based), and the first line is data.
    idx = Math.max(0, (Number(column) || 1) - 1);
    rows = lines;
  }
  return rows.map((l) => split(l)[idx] ?? '').filter(Boolean);
}

function field(p: OpenApiParam): { el: HTMLElement; read: () => unknown } {
  const s = p.schema;
  const help = p.description ? h('div.help', null, rich(p.description)) : null;
  const label = (input: HTMLElement) => h('div', { dataset: { param: p.name } },
    h('label', { for: `p-${p.name}`, title: `API parameter: ${p.name}` }, labelOf(p.name), p.required ? ' *' : '', ' ', h('code.param', null, p.name)), input, help);
  if (s.type === 'array' && s.items?.enum) {
    const boxes = s.items.enum.map((v) => h('input', { type: 'checkbox', value: v }));
    return { el: label(h('div.row', { id: `p-${p.name}` }, boxes.map((b, i) => h('span', null, b, ` ${s.items!.enum![i]}`)))), read: () => { const v = boxes.filter((b) => b.checked).map((b) => b.value); return v.length ? v : undefined; } };
  }
  if (s.enum || s.type === 'boolean') {
    const values = s.enum ?? ['true', 'false'];
    const sel = h('select', { id: `p-${p.name}`, name: p.name }, h('option', { value: '' }, s.default !== undefined ? `default (${String(s.default)})` : '—'), values.map((v) => h('option', { value: v }, v)));
    return { el: label(sel), read: () => sel.value || undefined };
  }
  const input = h('input', {
    id: `p-${p.name}`, name: p.name, type: s.type === 'integer' || s.type === 'number' ? 'number' : 'text',
    placeholder: s.default !== undefined ? `default ${JSON.stringify(s.default)}` : '', min: s.minimum, max: s.maximum,
  });
  if (s.type === 'array') input.placeholder = 'several values: separate with commas';
  // An area (maps search, docs/areas.md): picked from the locations, drawn as a box, or pasted GeoJSON.
  if (p.name === 'area') return { el: label(h('div', null, input, areaPicker(input))), read: () => (input.value.trim() === '' ? undefined : input.value.trim()) };
  return { el: label(input), read: () => (input.value.trim() === '' ? undefined : s.type === 'array' ? input.value.split(',').map((x) => x.trim()).filter(Boolean) : input.value.trim()) };
}

export async function runPage(root: HTMLElement) {
  const eps = await dataEndpoints();
  const select = h('select', { id: 'endpoint', 'aria-label': 'endpoint' }, eps.map((e) => h('option', { value: e.path }, `${e.path} — ${e.op.summary ?? ''}`)));
  const info = h('p.help');
  const params = h('div.grid');
  const queries = h('textarea', { id: 'queries', placeholder: 'One query a line', 'aria-label': 'queries' });
  const source = h('select', { id: 'query-source', 'aria-label': 'queries are' }, h('option', { value: 'lines' }, 'one query a line'), h('option', { value: 'csv' }, 'a CSV column'));
  const column = h('input', { type: 'text', id: 'csv-column', placeholder: 'column name or number', style: 'max-width:220px;display:none' });
  const mode = h('select', { id: 'mode', 'aria-label': 'mode' }, h('option', { value: 'auto' }, `Wait for the records if ${SYNC_UP_TO} queries or fewer`), h('option', { value: 'sync' }, 'Wait for the records'), h('option', { value: 'async' }, 'Run in the background'));
  const count = h('span.muted');
  const submit = h('button.primary', { type: 'submit' }, 'Run');
  const out = h('div');
  let readers: { name: string; read: () => unknown }[] = [];

  const readQueries = () => (source.value === 'csv' ? csvColumn(queries.value, column.value || '1') : queries.value.split(/\r?\n/).map((l) => l.trim()).filter(Boolean));
  const recount = () => { const n = readQueries().length; count.textContent = `${n} ${n === 1 ? 'query' : 'queries'}`; reestimate(); };
  queries.addEventListener('input', recount);
  column.addEventListener('input', recount);
  source.addEventListener('change', () => { column.style.display = source.value === 'csv' ? '' : 'none'; recount(); });

  const example = h('div.example');
  const cost = h('p.help', { id: 'estimate' });
  let prices: PriceList | null = null;
  let defaults: Record<string, unknown> = {};
  const reestimate = () => {
    const n = readQueries().length;
    const values: Record<string, unknown> = {};
    for (const r of readers) { const v = r.read(); if (v !== undefined) values[r.name] = v; }
    const e = prices && n ? estimate(prices, select.value, n, values, defaults) : null;
    if (!e) { mount(cost, prices && !n ? 'Give queries to see what the request may cost.' : null); return; }
    mount(cost, h('span.estimate', null, e.maxMicros === null ? 'Cost: not bounded in advance' : `Cost: at most ${money(e.maxMicros, prices!.currency)}`),
      ` (${e.lines.join('; ')}${e.maxMicros === null ? '; no limit is set, so the number of records is not known in advance' : ''}). Billed per ${e.unit} found, at your account\'s prices.`);
  };
  void api().prices().then((p) => { prices = p; reestimate(); }, () => undefined);

  const pick = () => {
    const e = eps.find((x) => x.path === select.value)!;
    const about = endpointInfo(e.op.description ?? '');
    const query = e.op.parameters?.find((p) => p.name === 'query') as (OpenApiParam & { example?: string[] }) | undefined;
    mount(info, about.summary, ' ', about.queries ? ['Each query is: ', ...rich(about.queries), ' '] : null, about.billing);
    mount(example, query?.example?.length ? ['Example: ', h('button.link', { type: 'button', id: 'use-example', onclick: () => { queries.value = query.example!.join('\n'); source.value = 'lines'; column.style.display = 'none'; recount(); } },
      query.example.join(' · '))] : null);
    const fields = (e.op.parameters ?? []).filter((p) => p.in === 'query' && !SKIP.has(p.name)).map((p) => ({ name: p.name, ...field(p) }));
    defaults = Object.fromEntries((e.op.parameters ?? []).map((p) => [p.name, p.schema.default]));
    readers = fields;
    mount(params, fields.map((f) => f.el));
    reestimate();
  };
  select.addEventListener('change', pick);
  const wanted = new URLSearchParams(location.hash.split('?')[1] ?? '').get('endpoint');
  if (wanted && eps.some((e) => e.path === wanted)) select.value = wanted;
  pick();

  const form = h('form', {
    onsubmit: async (ev: Event) => {
      ev.preventDefault();
      const qs = readQueries();
      if (!qs.length) { mount(out, errorBox('Give at least one query.')); return; }
      const p: Record<string, unknown> = {};
      for (const r of readers) { const v = r.read(); if (v !== undefined) p[r.name] = v; }
      const sync = mode.value === 'sync' || (mode.value === 'auto' && qs.length <= SYNC_UP_TO && !p.format);
      submit.disabled = true;
      mount(out, h('p.muted', null, sync ? 'Running…' : 'Submitting…'));
      try {
        const c = api();
        if (!sync) {
          const { id } = await c.submit(select.value as never, qs, p as never);
          location.hash = `#/requests/${id}`;
          return;
        }
        const res = await c.call('GET', select.value, { query: { ...p, query: qs, async: false } });
        const failed = res.headers.get('x-request-status') === 'Failure' || res.status === 204;
        const body = res.status === 204 ? null : await res.json() as { id: string; status: string; data?: unknown[]; errors?: never[]; results_location?: string; areas?: AreaCoverage[] };
        if (body?.status === 'Pending') { location.hash = `#/requests/${body.id}`; return; }
        const id = body?.id ?? res.headers.get('x-request-id') ?? '';
        const link = h('p', null, 'Request ', h('a.mono', { href: `#/requests/${id}` }, id));
        if (failed || !body) {
          // Why: every failed query with its reason (a body), or the first reason (a 204's header).
          const header = res.headers.get('x-request-error');
          mount(out, h('div.card', null, link, failedQueries(body?.errors ?? []) ?? errorBox(`The request ended in Failure${header ? `: ${header}` : ' without a reason given.'}`)));
        } else mount(out, h('div.card', null, link, resultViewer(body.data ?? [], body.errors ?? [], body.areas)));
      } catch (e) { mount(out, errorBox(e)); } finally {
        submit.disabled = false;
        // The answer is below the form: bring it into view.
        out.scrollIntoView({ behavior: 'smooth', block: 'start' });
      }
    },
  },
  h('div.card', null,
    h('label', { for: 'endpoint' }, 'Endpoint'), select, info,
    h('label', { for: 'queries' }, 'Queries'), h('div.row', { style: 'margin-bottom:6px' }, source, column, count), queries, example),
  h('div.card', null, h('h2', null, 'Parameters'), params),
  h('div.row', null, mode, submit, cost));
  form.addEventListener('input', reestimate);
  form.addEventListener('change', reestimate);
  mount(root, h('h1', null, 'Run'), form, out);
}
