/** A finished request's records: table, map and JSON, and the reasons of the queries that failed. */
import { h } from './dom.ts';
import { recordTable, type Row } from './table.ts';
import { recordMap } from './map.ts';
import type { AreaCoverage, QueryError } from '../../clients/typescript/src/client.ts';

const JSON_SHOWN = 2_000_000;

export function failedQueries(errors: QueryError[]): HTMLElement | null {
  if (!errors.length) return null;
  return h('div.error', { role: 'alert' }, h('strong', null, `${errors.length} ${errors.length === 1 ? 'query' : 'queries'} failed`),
    h('ul', null, errors.slice(0, 50).map((e) => h('li', null, h('span.mono', null, e.query), ` — ${e.error.type}: ${e.error.message}`))));
}

/** Area queries: views searched and still saturated, places found against the estimate. */
export function areaCoverage(areas: AreaCoverage[] | undefined): HTMLElement | null {
  if (!areas?.length) return null;
  const n = (v: unknown) => (typeof v === 'number' ? v.toLocaleString() : '');
  return h('div.area-coverage', { id: 'area-coverage' }, h('h2', null, 'Area coverage'),
    h('div.scroll-x', null, h('table.list', null, h('tr', null, ['Query', 'Area', 'Views searched', 'Views saturated', 'Still saturated at the smallest view', 'Places found', 'Places estimated', 'Coverage'].map((t) => h('th', null, t))),
      areas.map((a) => h('tr', null, h('td', null, a.query), h('td.mono', null, a.area ?? 'shape'), h('td', null, n(a.views_searched)), h('td', null, n(a.views_saturated)), h('td', null, n(a.views_saturated_deepest)),
        h('td', null, n(a.places_found)), h('td', null, n(a.places_estimated)), h('td', null, typeof a.coverage === 'number' ? `${(a.coverage * 100).toFixed(1)} %` : ''))))),
    h('p.help', null, 'A saturated view showed as many places as the map shows at once, so it was split into four smaller ones; coverage is the estimated share of the area\'s places found.'));
}

export function resultViewer(data: unknown[], errors: QueryError[] = [], areas?: AreaCoverage[]): HTMLElement {
  const rows = data.flatMap((q) => (Array.isArray(q) ? q : [q])).filter((r): r is Row => !!r && typeof r === 'object');
  const pane = h('div');
  const tabs: Record<string, () => HTMLElement> = {
    Table: () => recordTable(rows),
    Map: () => recordMap(rows),
    JSON: () => {
      const text = JSON.stringify(data, null, 2);
      const blob = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      return h('div', null, h('p', null, h('a', { href: blob, download: 'result.json' }, 'Download JSON'), text.length > JSON_SHOWN ? h('span.muted', null, ' (first 2 MB shown)') : null),
        h('pre.json', null, text.slice(0, JSON_SHOWN)));
    },
  };
  const bar = h('div.tabs', { role: 'tablist' });
  const show = (name: string) => {
    [...bar.children].forEach((b) => b.classList.toggle('active', b.textContent === name));
    pane.replaceChildren(tabs[name]());
  };
  for (const name of Object.keys(tabs)) bar.appendChild(h('button', { role: 'tab', onclick: () => show(name) }, name));
  show('Table');
  return h('div', null, failedQueries(errors), areaCoverage(areas), h('p.muted', null, `${rows.length.toLocaleString()} records from ${data.length.toLocaleString()} ${data.length === 1 ? 'query' : 'queries'}`), bar, pane);
}
