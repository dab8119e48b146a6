/** Requests: the account's requests of the last 24 hours with live progress, and one request's page. */
import { h, mount, when, status, errorBox } from './dom.ts';
import { api } from './api.ts';
import { resultViewer } from './viewer.ts';
import { viewsMap } from './map.ts';
import type { HistoryItem } from '../../clients/typescript/src/client.ts';

/** A request's bar: blue while it runs, green when it succeeded, red when it failed, grey when cancelled. */
const progressBar = (done: number, total: number, state = 'Pending') =>
  h('div.row', null, h('div.bar', { role: 'progressbar', 'aria-valuenow': done, 'aria-valuemax': total }, h(`div.${state}`, { style: `width:${total ? (100 * done) / total : 0}%` })),
    h('span.mono', null, `${done}/${total}`));

/** Failure is shown as Cancelled when that is why it ended. */
const stateOf = (r: { status?: string; reason?: string }) => (r.status === 'Failure' && r.reason?.startsWith('cancelled') ? 'Cancelled' : r.status ?? '');
const PAGE = 20;

export async function requestsPage(root: HTMLElement, alive: () => boolean) {
  const c = api();
  const list = h('div.scroll-x');
  const pager = h('div.pager');
  mount(root, h('h1', null, 'Requests'), h('div.card', null, h('p.help', null, 'Requests of the last 24 hours (the latest 100), running ones first. Select one to see its records.'), list, pager));
  // Running requests are all on the first page; finished ones are paged by the API (skip, pageSize).
  let page = Number(new URLSearchParams(location.hash.split('?')[1] ?? '').get('page') ?? 1) || 1;
  let wake: () => void = () => {};
  const go = (p: number) => { page = p; history.replaceState(null, '', `#/requests?page=${p}`); wake(); };
  for (;;) {
    let items: HistoryItem[];
    let more = false;
    try {
      const [running, finished] = await Promise.all([page === 1 ? c.requests({ type: 'running', pageSize: 100 }) : [],
        c.requests({ type: 'finished', skip: (page - 1) * PAGE, pageSize: PAGE + 1 })]);
      more = finished.length > PAGE;
      items = [...running.sort((a, b) => (b.created ?? 0) - (a.created ?? 0)), ...finished.slice(0, PAGE)];
    } catch (e) { mount(list, errorBox(e)); return; }
    mount(list, items.length ? h('table.list', null,
      h('tr', null, ['Request', 'Endpoint', 'Status', 'Progress', 'Records', 'Usage', 'Created', 'Reason', ''].map((t) => h('th', null, t))),
      items.map((r) => h('tr.link', { onclick: () => { location.hash = `#/requests/${r.id}`; }, dataset: { id: r.id } },
        h('td.mono', null, r.id.slice(0, 8)), h('td', null, r.endpoint ?? ''), h('td', null, status(stateOf(r))),
        h('td', null, r.progress ? progressBar(r.progress.queries_done, r.progress.queries_total, stateOf(r)) : ''), h('td', null, r.progress?.records ?? ''),
        h('td', null, r.usage), h('td', null, when(r.created)), h('td', null, r.reason ? h('div.reason', { title: r.reason }, r.reason) : ''),
        h('td', null, r.status === 'Pending' ? h('button.danger', { onclick: async (e: Event) => { e.stopPropagation(); await c.cancel(r.id); } }, 'Cancel') : ''))))
      : h('p.muted', null, page === 1 ? 'No requests in the last 24 hours. Start one on the Run page.' : 'No more requests.'));
    mount(pager, page > 1 || more ? [h('button', { id: 'requests-prev', disabled: page === 1, onclick: () => go(page - 1) }, '← Newer'),
      h('span.muted', { id: 'requests-page' }, `Page ${page}`), h('button', { id: 'requests-next', disabled: !more, onclick: () => go(page + 1) }, 'Older →')] : null);
    // Refresh while something runs (the list is cheap: two calls); a page change refreshes at once.
    const running = items.some((r) => r.status === 'Pending');
    await new Promise<void>((r) => { wake = r; if (running) setTimeout(r, 1_500); });
    if (!alive()) return;
  }
}

export async function requestPage(root: HTMLElement, id: string, alive: () => boolean) {
  const c = api();
  const head = h('div');
  const body = h('div');
  mount(root, h('p', null, h('a', { href: '#/requests' }, '← Requests')), h('h1', null, 'Request ', h('span.mono', null, id)), h('div.card', null, head), body);
  const started = Date.now();
  let views: ReturnType<typeof viewsMap> | undefined;
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
      // An area query: its views so far, and the views still to search on a map (kept across polls).
      const a = p.area;
      if (a) {
        views ??= viewsMap();
        mount(body, h('div.card', { id: 'area-progress' }, h('h2', null, 'Area search'),
          h('p', null, `${a.views_done.toLocaleString()} of ${a.views_planned.toLocaleString()} views searched, ${a.views_saturated.toLocaleString()} saturated (split into four), ${a.places_found.toLocaleString()} places so far, coverage so far ${(a.coverage * 100).toFixed(1)} %.`),
          h('p.help', null, 'The next view to search is orange; the other views still to search are blue.'), views.el));
        views.update(a.planned);
      }
      await new Promise((r) => setTimeout(r, delay));
      continue;
    }
    if (s.status === 'Failure') {
      const reason = s.reason ?? (s.errors[0] ? `${s.errors[0].error.type}: ${s.errors[0].error.message}` : null);
      mount(head, h('div.row', null, status(stateOf({ status: 'Failure', reason: reason ?? undefined })),
        h('span', { role: 'alert' }, reason ? `Reason: ${reason}` : 'The request ended without results (cancelled, or every query failed).')));
      return;
    }
    const records = s.data.reduce((n, q) => n + (Array.isArray(q) ? q.length : 1), 0);
    mount(head, h('div.row', null, status('Success'), progressBar(s.data.length, s.data.length, 'Success'), h('strong.pct', null, '100 %'), h('span', null, `${records.toLocaleString()} records`)));
    mount(body, h('div.card', null, resultViewer(s.data, s.errors, s.areas)));
    return;
  }
}
