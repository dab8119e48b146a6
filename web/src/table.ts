/**
 * A sortable, filterable table that renders only the rows in view (about 30 of them, whatever the
 * count): 50,000 records scroll like 50. Cells are text; nested values show as compact JSON.
 */
import { h } from './dom.ts';

const ROW = 28;
const OVERSCAN = 8;

export type Row = Record<string, unknown>;

const cellText = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Up to about 400 rows spread over the whole result (its first rows need not be typical). */
function sampleOf(rows: Row[]): Row[] {
  const stride = Math.max(1, Math.floor(rows.length / 200));
  return [...rows.slice(0, 200), ...rows.filter((_, i) => i % stride === 0).slice(0, 200)];
}

/** What a reader looks for first in a record, in this order; identifiers go last. */
const LEAD = ['name', 'title', 'category', 'full_address', 'address', 'phone', 'site', 'rating', 'reviews'];
const isId = (c: string) => /(^|_)c?id$/.test(c);

/** Columns over a sample of rows: the lead ones, then the others in first-seen order, then the ids. */
export function columnsOf(sample: Row[]): string[] {
  const seen = new Set<string>();
  for (const r of sample) for (const k of Object.keys(r)) seen.add(k);
  const rest = [...seen].filter((c) => !LEAD.includes(c));
  return [...LEAD.filter((c) => seen.has(c)), ...rest.filter((c) => !isId(c)), ...rest.filter(isId)];
}

export function recordTable(rows: Row[]): HTMLElement {
  const sample = sampleOf(rows);
  const columns = columnsOf(sample);
  const widths = columns.map((c) => Math.min(320, Math.max(80, c.length * 9 + 24, ...sample.map((r) => Math.min(40, cellText(r[c]).length) * 7.5 + 16))));
  const total = widths.reduce((a, b) => a + b, 0);
  let view = rows.map((_, i) => i);
  let sortBy = -1;
  let desc = false;
  let haystack: string[] | null = null;

  const count = h('span.muted', null);
  const filter = h('input', { type: 'text', placeholder: 'Filter rows (any column)…', 'aria-label': 'filter', style: 'max-width:320px' });
  const head = h('div.vt-head', { style: `width:${total}px` }, columns.map((c, i) => h('div', { style: `width:${widths[i]}px`, title: `Sort by ${c}`, onclick: () => sort(i) }, c)));
  const headWrap = h('div', { style: 'overflow:hidden' }, head);
  const spacer = h('div', { style: `height:${rows.length * ROW}px;width:${total}px` });
  // Small results get a small table; big ones scroll inside 480 px.
  const body = h('div.vt-body', { role: 'grid', 'aria-rowcount': rows.length, style: `height:${Math.min(480, Math.max(rows.length, 1) * ROW + 18)}px` }, spacer);

  function render() {
    const first = Math.max(0, Math.floor(body.scrollTop / ROW) - OVERSCAN);
    const last = Math.min(view.length, Math.ceil((body.scrollTop + body.clientHeight) / ROW) + OVERSCAN);
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const r = rows[view[i]];
      frag.appendChild(h('div.vt-row', { style: `top:${i * ROW}px;width:${total}px`, dataset: { index: String(view[i]) } },
        columns.map((c, j) => { const t = cellText(r[c]); return h('div', { style: `width:${widths[j]}px`, title: t.length > 40 ? t.slice(0, 500) : null }, t); })));
    }
    spacer.replaceChildren(frag);
    spacer.style.height = `${view.length * ROW}px`;
    count.textContent = view.length === rows.length ? `${rows.length.toLocaleString()} rows` : `${view.length.toLocaleString()} of ${rows.length.toLocaleString()} rows`;
  }

  function sort(i: number) {
    desc = sortBy === i ? !desc : false;
    sortBy = i;
    const c = columns[i];
    const numeric = rows.slice(0, 200).every((r) => r[c] === null || r[c] === undefined || typeof r[c] === 'number');
    const key = rows.map((r) => (numeric ? (typeof r[c] === 'number' ? (r[c] as number) : -Infinity) : cellText(r[c]).toLowerCase()));
    const dir = desc ? -1 : 1;
    view.sort((a, b) => (key[a] < key[b] ? -dir : key[a] > key[b] ? dir : a - b));
    [...head.children].forEach((el, j) => { el.textContent = columns[j] + (j === i ? (desc ? ' ▼' : ' ▲') : ''); });
    body.scrollTop = 0;
    render();
  }

  let pending = 0;
  filter.addEventListener('input', () => {
    clearTimeout(pending);
    pending = window.setTimeout(() => {
      const q = filter.value.trim().toLowerCase();
      haystack ??= rows.map((r) => columns.map((c) => cellText(r[c])).join('\u0001').toLowerCase());
      const base = sortBy < 0 ? rows.map((_, i) => i) : view.slice().sort((a, b) => a - b);
      const keep = q ? base.filter((i) => haystack![i].includes(q)) : base;
      view = keep;
      if (sortBy >= 0) { const s = sortBy; sortBy = -1; desc = !desc; sort(s); } else { body.scrollTop = 0; render(); }
    }, 120);
  });

  let frame = 0;
  body.addEventListener('scroll', () => {
    headWrap.scrollLeft = body.scrollLeft;
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; render(); });
  });
  const el = h('div', null, h('div.row', { style: 'margin-bottom:8px' }, filter, count), h('div.vt', null, headWrap, body));
  // The body's height is known only once attached.
  requestAnimationFrame(render);
  render();
  return el;
}
