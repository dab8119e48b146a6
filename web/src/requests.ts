/** Requests: the account's requests of the last 24 hours with live progress, and one request's page. */
import { h, mount, when, status, errorBox } from './dom.ts';
import { api } from './api.ts';
import { resultViewer } from './viewer.ts';
import type { HistoryItem } from '../../clients/typescript/src/client.ts';

const progressBar = (done: number, total: number) =>
  h('div.row', null, h('div.bar', { role: 'progressbar', 'aria-valuenow': done, 'aria-valuemax': total }, h('div', { style: `width:${total ? (100 * done) / total : 0}%` })),
    h('span.mono', null, `${done}/${total}`));

export async function requestsPage(root: HTMLElement, alive: () => boolean) {
  const c = api();
  const list = h('div');
  mount(root, h('h1', null, 'Requests'), h('div.card', null, list));
  for (;;) {
    let items: HistoryItem[];
    try {
      items = (await Promise.all([c.requests({ type: 'running', pageSize: 100 }), c.requests({ type: 'finished', pageSize: 100 })])).flat();
    } catch (e) { mount(list, errorBox(e)); return; }
    items.sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    mount(list, items.length ? h('table.list', null,
      h('tr', null, ['Request', 'Endpoint', 'Status', 'Progress', 'Records', 'Usage', 'Created', ''].map((t) => h('th', null, t))),
      items.map((r) => h('tr.link', { onclick: () => { location.hash = `#/requests/${r.id}`; }, dataset: { id: r.id } },
        h('td.mono', null, r.id.slice(0, 8)), h('td', null, r.endpoint ?? ''), h('td', null, status(r.status)),
        h('td', null, r.progress ? progressBar(r.progress.queries_done, r.progress.queries_total) : ''), h('td', null, r.progress?.records ?? ''),
        h('td', null, r.usage), h('td', null, when(r.created)),
        h('td', null, r.status === 'Pending' ? h('button.danger', { onclick: async (e: Event) => { e.stopPropagation(); await c.cancel(r.id); } }, 'Cancel') : ''))))
      : h('p.muted', null, 'No requests in the last 24 hours. Start one on the Run page.'));
    // Refresh while something runs (the list is cheap: two calls).
    if (!items.some((r) => r.status === 'Pending')) return;
    await new Promise((r) => setTimeout(r, 1_500));
    if (!alive()) return;
  }
}

export async function requestPage(root: HTMLElement, id: string, alive: () => boolean) {
  const c = api();
  const head = h('div');
  const body = h('div');
  mount(root, h('p', null, h('a', { href: '#/requests' }, '← Requests')), h('h1', null, 'Request ', h('span.mono', null, id)), h('div.card', null, head), body);
  const started = Date.now();
  for (let delay = 400; ; delay = Math.min(delay * 1.3, 3_000)) {
    if (!alive()) return;
    let s;
    try { s = await c.state(id); } catch (e) { mount(head, errorBox(e)); return; }
    if (s.status === 'Pending') {
      if (s.expired) { mount(head, status('Pending'), ' ', h('span.muted', null, 'Expired: results are kept 4 hours after a request ends.')); return; }
      const p = s.progress ?? { queries_done: 0, queries_total: 0, records: 0 };
      const pct = p.queries_total ? Math.floor((100 * p.queries_done) / p.queries_total) : 0;
      mount(head, h('div.row', null, status('Pending'), progressBar(p.queries_done, p.queries_total), h('strong.pct', null, `${pct} %`),
        h('span', null, `${p.records} records`), h('span.muted', null, `${Math.round((Date.now() - started) / 1000)} s`),
        h('button.danger', { onclick: async () => { await c.cancel(id); } }, 'Cancel')));
      await new Promise((r) => setTimeout(r, delay));
      continue;
    }
    if (s.status === 'Failure') {
      mount(head, h('div.row', null, status('Failure'), h('span', null, s.reason ? `Reason: ${s.reason}` : 'The request ended without results (cancelled, or every query failed).')));
      return;
    }
    const records = s.data.reduce((n, q) => n + (Array.isArray(q) ? q.length : 1), 0);
    mount(head, h('div.row', null, status('Success'), progressBar(s.data.length, s.data.length), h('strong.pct', null, '100 %'), h('span', null, `${records.toLocaleString()} records`)));
    mount(body, h('div.card', null, resultViewer(s.data, s.errors)));
    return;
  }
}
