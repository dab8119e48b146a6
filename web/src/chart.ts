/**
 * The frame of a bar chart: its bars in an SVG stretched to the card's width (drawn in a W-wide
 * space), and its labels (the top value, the ticks under the bars) as text of the page at the
 * page's own size, so they stay readable at any width: scaled inside the SVG, a 900-wide chart's
 * labels were 4-5 px tall on a 390 px phone. On a narrow screen every other tick is left out
 * (app.css), so they do not run into each other.
 *
 * @example chartFrame(root, 900, '42', [{ x: 28, label: '11-29' }], legend)
 */
import { h } from './dom.ts';

export function chartFrame(root: SVGElement, width: number, top: string, ticks: { x: number; label: string }[], legend: HTMLElement): HTMLElement {
  root.setAttribute('preserveAspectRatio', 'none');
  const el = h('div.chart');
  el.appendChild(h('div.chart-top', null, top));
  el.appendChild(root);
  el.appendChild(h('div.chart-ticks', null, ticks.map((t) => h('span', { style: `left:${((100 * t.x) / width).toFixed(2)}%` }, t.label))));
  el.appendChild(legend);
  return el;
}
