/**
 * Monitors (issue 29, docs/monitors.md): the account's monitors with a form to make one, and one
 * monitor's page: what it watches, pause / resume / delete, and its timeline: one bar per run (the
 * changes it found, by kind) above the runs newest first, each with its changes (field, before, after).
 */
import { h, mount, when, status, errorBox, svg } from './dom.ts';
import { api } from './api.ts';
import { chartFrame } from './chart.ts';
import { dataEndpoints } from './run.ts';
import type { Monitor, MonitorChange, MonitorRun } from '../../clients/typescript/src/client.ts';

type Kind = MonitorChange['kind'];
const KINDS: [Kind, string, string][] = [['new', 'new', '#16a34a'], ['changed', 'changed', '#2563eb'], ['gone', 'gone', '#dc2626'], ['new_reviews', 'new reviews', '#9333ea'], ['removed', 'removed', '#b45309']];
const colour = (k: Kind) => KINDS.find((x) => x[0] === k)![2];
/** Runs shown on a monitor's page (the API pages them; older ones are in GET /monitors/{id}/runs). */
const RUNS = 30;
/** Changes read for those runs at most (pages of 1000). */
const CHANGES = 5_000;

const lines = (t: string) => t.split(/\r?\n/).map((x) => x.trim()).filter(Boolean);

/** Units a schedule is said in, largest first: seconds, the word for one, the word for several (null: a symbol). */
const UNITS: [number, string, string | null][] = [[604_800, 'week', 'weeks'], [86_400, 'day', 'days'], [3600, 'h', null], [60, 'min', null]];

/** "every 6 h", "every day", "every 2 weeks", or the cron line with its zone. */
export function scheduleText(s: Monitor['schedule']): string {
  if (s.cron) return `cron ${s.cron} (${s.time_zone ?? 'UTC'})`;
  const n = s.every_s ?? 0;
  for (const [sec, one, many] of UNITS) {
    if (n % sec !== 0) continue;
    const k = n / sec;
    return many === null ? `every ${k} ${one}` : k === 1 ? `every ${one}` : `every ${k} ${many}`;
  }
  return `every ${n} s`;
}

/** Its status; one the service paused (its account could not pay a run) says so, with the reason on hover. */
const monitorStatus = (m: Monitor) => h('span', { class: `status ${m.status === 'active' ? 'Success' : m.paused_reason ? 'Failure' : 'Cancelled'}`, title: m.paused_reason ?? '' },
  m.paused_reason ? 'paused: cannot pay' : m.status);
const runState = (r: MonitorRun) => (r.status === 'done' ? 'Success' : r.status === 'failed' ? 'Failure' : 'Pending');

function countsText(r: MonitorRun): string {
  if (r.status === 'claimed' || r.status === 'running') return 'running…';
  if (r.status === 'failed') return 'failed';
  if (r.baseline) return `baseline: ${r.counts.records.toLocaleString()} records recorded, nothing compared yet`;
  const parts = KINDS.filter(([k]) => r.counts[k] > 0).map(([k, label]) => `${r.counts[k].toLocaleString()} ${label}`);
  return parts.length ? parts.join(' · ') : `no change in ${r.counts.records.toLocaleString()} records`;
}

export async function monitorsPage(root: HTMLElement, alive: () => boolean) {
  const c = api();
  const list = h('div.scroll-x');
  const msg = h('div');
  const endpoints = (await dataEndpoints()).map((e) => e.path);
  const endpoint = h('select', { id: 'monitor-endpoint', 'aria-label': 'endpoint' }, endpoints.map((p) => h('option', { value: p, selected: p === '/maps/search' }, p)));
  const name = h('input', { type: 'text', id: 'monitor-name', placeholder: 'austin coffee' });
  const queries = h('textarea', { id: 'monitor-queries', placeholder: 'coffee austin tx', style: 'min-height:70px' });
  const limit = h('input', { type: 'number', id: 'monitor-limit', min: 1, placeholder: 'the endpoint\'s default' });
  const every = h('select', { id: 'monitor-every', 'aria-label': 'how often' },
    [['3600', 'every hour'], ['21600', 'every 6 hours'], ['86400', 'every day'], ['604800', 'every week'], ['cron', 'at a cron time…']].map(([v, t]) => h('option', { value: v, selected: v === '86400' }, t)));
  const cron = h('input', { type: 'text', id: 'monitor-cron', placeholder: '0 7 * * 1-5' });
  const zone = h('input', { type: 'text', id: 'monitor-tz', value: Intl.DateTimeFormat().resolvedOptions().timeZone });
  const cronRow = h('div', { hidden: true }, h('label', { for: 'monitor-cron' }, 'Cron (minute hour day month weekday)'), cron, h('label', { for: 'monitor-tz' }, 'Time zone'), zone);
  every.addEventListener('change', () => { cronRow.hidden = every.value !== 'cron'; });
  const webhook = h('input', { type: 'text', id: 'monitor-webhook', placeholder: 'https://example.com/hooks/trawl (optional)' });

  const form = h('form', {
    onsubmit: async (ev: Event) => {
      ev.preventDefault();
      mount(msg);
      try {
        const schedule = every.value === 'cron' ? { cron: cron.value.trim(), time_zone: zone.value.trim() || 'UTC' } : { every_s: Number(every.value) };
        const m = await c.createMonitor({
          endpoint: endpoint.value, queries: lines(queries.value), schedule, params: limit.value ? { limit: Number(limit.value) } : {},
          ...(name.value.trim() ? { name: name.value.trim() } : {}), ...(webhook.value.trim() ? { webhook: webhook.value.trim() } : {}),
        });
        location.hash = `#/monitors/${m.id}`;
      } catch (e) { mount(msg, errorBox(e)); }
    },
  },
  h('div.grid', null,
    h('div', null, h('label', { for: 'monitor-endpoint' }, 'What to watch'), endpoint, h('label', { for: 'monitor-queries' }, 'Queries (one a line)'), queries),
    h('div', null, h('label', { for: 'monitor-every' }, 'How often'), every, cronRow, h('label', { for: 'monitor-limit' }, 'Records per query'), limit),
    h('div', null, h('label', { for: 'monitor-name' }, 'Name'), name, h('label', { for: 'monitor-webhook' }, 'Webhook'), webhook,
      h('div.help', null, 'Each run is an ordinary request, billed like one. The first run records what is there; the next ones report what changed: new places, places gone, each changed field with its value before and after, new reviews.'))),
  h('p', null, h('button.primary', { type: 'submit', id: 'monitor-create' }, 'Create monitor')), msg);

  mount(root, h('h1', null, 'Monitors'), h('div.card', null, h('h2', null, 'Your monitors'), list), h('div.card', null, h('h2', null, 'New monitor'), form));
  for (;;) {
    let monitors: Monitor[];
    try { ({ monitors } = await c.monitors({ pageSize: 100 })); } catch (e) { mount(list, errorBox(e)); return; }
    mount(list, monitors.length ? h('table.list', null,
      h('tr', null, ['Name', 'Watches', 'Schedule', 'Status', 'Runs', 'Last run', 'Next run'].map((t) => h('th', null, t))),
      monitors.map((m) => h('tr.link', { onclick: () => { location.hash = `#/monitors/${m.id}`; }, dataset: { monitor: m.id } },
        h('td', null, m.name ?? h('span.mono', null, m.id.slice(0, 8))), h('td', null, `${m.endpoint}: ${m.queries.slice(0, 2).join(', ')}${m.queries.length > 2 ? ` +${m.queries.length - 2}` : ''}`),
        h('td', null, scheduleText(m.schedule)), h('td', null, monitorStatus(m)), h('td', null, m.runs), h('td', null, when(m.last_run)), h('td', null, when(m.next_run)))))
      : h('div.empty-hint', null, h('p', null, 'No monitors yet. Make one below, or from a terminal:'),
        h('pre', null, 'npx trawl monitors create /maps/search "coffee austin tx" --every 1d --limit 100')));
    await new Promise((r) => setTimeout(r, 10_000));
    if (!alive()) return;
  }
}

/** Every change of the runs shown, by run id (oldest first within a run). */
async function changesByRun(id: string, from: number): Promise<Map<string, MonitorChange[]>> {
  const c = api();
  const out = new Map<string, MonitorChange[]>();
  let cursor: string | undefined;
  for (let n = 0; n < CHANGES;) {
    const page = await c.monitorChanges(id, { from, pageSize: 1000, ...(cursor ? { cursor } : {}) });
    for (const ch of page.changes) (out.get(ch.run_id) ?? out.set(ch.run_id, []).get(ch.run_id)!).push(ch);
    n += page.changes.length;
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return out;
}

/** One bar per run, oldest left: its changes stacked by kind; a failed run a red mark, the baseline a grey one. */
function timelineChart(runs: MonitorRun[]): HTMLElement {
  const ordered = [...runs].reverse();
  const total = (r: MonitorRun) => KINDS.reduce((s, [k]) => s + r.counts[k], 0);
  const max = Math.max(1, ...ordered.map(total));
  const W = 900, H = 140, pad = 30, bw = Math.min(60, (W - pad) / Math.max(ordered.length, 1));
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'changes per run', id: 'monitor-chart' });
  root.appendChild(svg('line', { x1: pad, y1: H, x2: W, y2: H, stroke: '#d0d5dd', 'vector-effect': 'non-scaling-stroke' }));
  const ticks: { x: number; label: string }[] = [];
  ordered.forEach((r, i) => {
    const x = pad + i * bw + 2;
    const mark = (fill: string, label: string) => {
      const m = svg('rect', { x, y: H - 6, width: Math.max(bw - 4, 2), height: 6, fill, class: 'run-mark' });
      m.appendChild(svg('title', {}, `${when(r.due)}: ${label}`));
      root.appendChild(m);
    };
    if (r.status === 'failed') mark('#b42318', `failed: ${r.reason ?? ''}`);
    else if (r.baseline) mark('#98a2b3', countsText(r));
    else if (r.status !== 'done') mark('#f79009', 'running');
    let y = H;
    for (const [k, label] of KINDS) {
      const n = r.counts[k];
      if (!n) continue;
      const hgt = (n / max) * (H - 16);
      y -= hgt;
      const bar = svg('rect', { x, y, width: Math.max(bw - 4, 2), height: hgt, fill: colour(k), class: `run-bar ${k}` });
      bar.appendChild(svg('title', {}, `${when(r.due)}: ${n} ${label}`));
      root.appendChild(bar);
    }
    if (i % Math.max(Math.ceil(ordered.length / 8), Math.ceil(84 / bw)) === 0) ticks.push({ x, label: when(r.due).slice(5, 16) });
  });
  return chartFrame(root, W, String(max), ticks,
    h('div.legend', null, KINDS.map(([, label, c]) => h('span', { style: `--c:${c}` }, label)), h('span', { style: '--c:#98a2b3' }, 'baseline'), h('span', { style: '--c:#b42318' }, 'failed')));
}

const show = (v: unknown) => (v === null || v === undefined || v === '' ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));
const recordName = (r: unknown) => (r && typeof r === 'object' && 'name' in r ? String((r as { name: unknown }).name) : '');

function changeRow(ch: MonitorChange): HTMLElement {
  const what = ch.kind === 'changed' ? [h('strong', null, ch.field ?? ''), ': ', h('span.before', null, show(ch.before)), ' → ', h('span.after', null, show(ch.after))]
    : ch.kind === 'new' ? ['appeared', recordName(ch.record) ? `: ${recordName(ch.record)}` : '']
      : ch.kind === 'gone' ? ['no longer found by its query']
        : ch.kind === 'removed' ? ['review ', h('span.mono', null, show(ch.before)), ' no longer listed']
          : [`${show(ch.after)} new review${ch.after === 1 ? '' : 's'}`];
  return h('li', { dataset: { kind: ch.kind } }, h('span.kind', { style: `--c:${colour(ch.kind)}` }, ch.kind.replace('_', ' ')), ' ', h('span.mono', null, ch.identity), ' ', what);
}

function runItem(r: MonitorRun, changes: MonitorChange[]): HTMLElement {
  const shown = changes.slice(0, 50);
  return h('li.run', { dataset: { run: r.id, status: r.status } },
    h('div.row', null, h('strong', null, when(r.due)), status(runState(r)), h('span', null, countsText(r)),
      h('a', { href: `#/requests/${r.request_id}` }, 'its request')),
    r.reason ? h('div.reason', { title: r.reason }, r.reason) : null,
    shown.length ? h('ul.changes', null, shown.map(changeRow), changes.length > shown.length ? h('li.muted', null, `and ${changes.length - shown.length} more (GET /monitors/{id}/changes)`) : null) : null);
}

export async function monitorPage(root: HTMLElement, id: string, alive: () => boolean) {
  const c = api();
  const head = h('div.card');
  const timeline = h('div.card', { id: 'monitor-timeline' });
  mount(root, h('p', null, h('a', { href: '#/monitors' }, '← Monitors')), h('h1', { id: 'monitor-title' }, 'Monitor'), head, timeline);
  for (;;) {
    let m: Monitor, runs: MonitorRun[], changes: Map<string, MonitorChange[]>;
    try {
      [m, { runs }] = await Promise.all([c.monitor(id), c.monitorRuns(id, { pageSize: RUNS })]);
      changes = runs.length ? await changesByRun(id, runs.at(-1)!.due) : new Map();
    } catch (e) { mount(head, errorBox(e)); return; }
    mount(root.querySelector('#monitor-title')!, m.name ?? 'Monitor', ' ', monitorStatus(m));
    const toggle = m.status === 'active' ? 'paused' : 'active';
    mount(head, h('div.kv', null,
      h('div', null, 'Watches'), h('div', null, h('code', null, m.endpoint), ' ', m.queries.join(' · ')),
      h('div', null, 'Schedule'), h('div', null, scheduleText(m.schedule)),
      h('div', null, 'Next run'), h('div', { id: 'monitor-next' }, m.next_run ? when(m.next_run) : 'none while paused'),
      m.paused_reason ? [h('div', null, 'Paused by the service'), h('div', { id: 'monitor-paused-reason' }, m.paused_reason)] : null,
      h('div', null, 'Compares'), h('div', null, `identity ${(m.compare.identity ?? []).join(' + ')}; fields ${(m.compare.fields ?? []).join(', ')}`),
      h('div', null, 'Webhook'), h('div', null, m.webhook ?? h('span.muted', null, 'none'))),
    h('p.row', null,
      h('button', { id: 'monitor-toggle', onclick: async () => { try { await c.updateMonitor(id, { status: toggle }); wake(); } catch (e) { mount(head, errorBox(e)); } } }, toggle === 'paused' ? 'Pause' : 'Resume'),
      h('button.danger', { id: 'monitor-delete', onclick: async () => {
        if (!confirm('Delete this monitor with its runs and changes?')) return;
        try { await c.deleteMonitor(id); location.hash = '#/monitors'; } catch (e) { mount(head, errorBox(e)); }
      } }, 'Delete')));
    mount(timeline, h('h2', null, 'Timeline'), runs.length
      ? [timelineChart(runs), h('ol.timeline', null, runs.map((r) => runItem(r, changes.get(r.id) ?? [])))]
      : h('p.muted', null, m.status === 'active' ? 'No run yet: the first one starts within a few seconds.' : 'No run yet, and the monitor is paused.'));
    // While a run is under way the page follows it; otherwise it looks again now and then.
    const running = runs.some((r) => r.status === 'claimed' || r.status === 'running');
    let wake: () => void = () => {};
    await new Promise<void>((r) => { wake = r; setTimeout(r, running ? 1_500 : 10_000); });
    if (!alive()) return;
  }
}
