/** A small element builder: h('button.primary', { onclick }, 'Run'). No framework: the pages are forms and tables. */
type Child = Node | string | number | null | undefined | false | Child[];
type Props = Record<string, unknown> & { style?: string; dataset?: Record<string, string> };

export function h<K extends keyof HTMLElementTagNameMap>(spec: K | `${K}.${string}` | `${K}#${string}`, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const [tagAndId, ...classes] = spec.split('.');
  const [tag, id] = tagAndId.split('#');
  const el = document.createElement(tag) as HTMLElementTagNameMap[K];
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(' ');
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    // Through the CSSOM: the page's content security policy refuses style attributes.
    else if (k === 'style') el.style.cssText = String(v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k in el && typeof v !== 'string') (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

export function mount(target: Element, ...children: Child[]) {
  target.replaceChildren();
  append(target, children);
}

/**
 * One convention for every time shown: the browser's own zone, year first, the zone named
 * ("2026-11-27 06:33 CET"), so a time read off the page is never ambiguous.
 */
const FORMAT = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
export function at(d: Date): string {
  const p = Object.fromEntries(FORMAT.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}
export const when = (unixSec: number | undefined | null) => (unixSec ? at(new Date(unixSec * 1000)) : '');
export const whenIso = (iso: string | undefined | null) => (iso && !Number.isNaN(Date.parse(iso)) ? at(new Date(iso)) : '');
export const status = (s: string | undefined) => h('span.status', { class: `status ${s ?? ''}` }, s ?? '');
export const errorBox = (e: unknown) => h('div.error', { role: 'alert' }, e instanceof Error ? e.message : String(e));

const SVG = 'http://www.w3.org/2000/svg';
/** An SVG element (charts, timelines): attributes set as given, optional text. */
export function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = document.createElementNS(SVG, tag) as SVGElement;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}
