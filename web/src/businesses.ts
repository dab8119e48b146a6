/**
 * Businesses: the business database (POST /businesses) searched by a natural-language query and the
 * main filters, a page of results at a time (keyset cursor: Next follows next_cursor, Previous goes
 * back to a cursor already seen), with the filters the query was read into shown beside the results
 * so a user sees how it was understood. Every page shown is billed (one business unit per row).
 */
import { h, mount, errorBox } from './dom.ts';
import { api } from './api.ts';
import type { Business } from '../../clients/typescript/src/client.ts';
import { recordMap } from './map.ts';
import type { Row } from './table.ts';

interface Answer { items: Business[]; next_cursor: string | null; has_more: boolean; total?: number; parsed_query?: Record<string, unknown> }

const COLUMNS: [keyof Business | 'place', string][] = [['name', 'Name'], ['category', 'Category'], ['place', 'Place'], ['rating', 'Rating'],
  ['reviews', 'Reviews'], ['phone', 'Phone'], ['site', 'Site'], ['business_status', 'Status']];
const split = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

export function businessesPage(root: HTMLElement) {
  const c = api();
  const query = h('input', { type: 'text', id: 'biz-query', placeholder: 'e.g. coffee shops in austin tx rated 4.5+ with a website', 'aria-label': 'query', style: 'flex:1;min-width:320px' });
  const country = h('input', { type: 'text', id: 'biz-country', placeholder: 'e.g. US', maxLength: 2 });
  const cities = h('input', { type: 'text', id: 'biz-cities', placeholder: 'comma-separated' });
  const types = h('input', { type: 'text', id: 'biz-types', placeholder: 'e.g. Restaurant, Cafe' });
  const rating = h('input', { type: 'text', id: 'biz-rating', placeholder: 'e.g. 4.5+, <4, 3-4.5' });
  const website = h('select', { id: 'biz-website', 'aria-label': 'website' }, h('option', { value: '' }, 'any'), h('option', { value: 'true' }, 'has a website'),
    h('option', { value: 'false' }, 'has none'));
  const limit = h('select', { id: 'biz-limit', 'aria-label': 'rows per page' }, [10, 25, 100].map((n) => h('option', { value: String(n) }, `${n} a page`)));
  const parsed = h('div', { id: 'biz-parsed' });
  const results = h('div', { id: 'biz-results' });
  const pager = h('div.row');
  const msg = h('div');

  /** The search being paged, and the cursors of the pages before the one shown (Previous). */
  let body: Record<string, unknown> = {};
  let back: (string | null)[] = [];
  let current: string | null = null;
  let total: number | undefined;

  async function show(cursor: string | null) {
    mount(msg);
    try {
      // The total is asked for once per search (it costs a count of every match, not billed).
      const a = await c.json<Answer>('POST', '/businesses', { body: { ...body, cursor, include_total: cursor === null } });
      if (a.total !== undefined) total = a.total;
      current = cursor;
      mount(parsed, a.parsed_query ? [h('h2', null, 'Read as'), h('div.kv', null, Object.entries(a.parsed_query).flatMap(([k, v]) =>
        [h('div', null, k), h('div.mono', { dataset: { filter: k } }, typeof v === 'string' ? v : JSON.stringify(v))]))] : null);
      const bare = !body.query && !body.filters;
      mount(results, a.items.length ? [h('div.scroll-x', null, h('table.list', null, h('tr', null, COLUMNS.map(([, t]) => h('th', null, t))),
        a.items.map((b) => h('tr', { dataset: { osId: b.os_id } }, COLUMNS.map(([k]) => h('td', null, cell(b, k))))))),
      h('h2', { style: 'margin-top:16px' }, 'On the map'), recordMap(a.items as unknown as Row[], 'No business of this page has coordinates.')]
        : emptyHint(bare && total === 0));
      const from = back.length * Number(limit.value);
      mount(pager, h('button', { id: 'biz-prev', disabled: back.length === 0, onclick: () => void show(back.pop() ?? null) }, '← Previous'),
        h('span.muted', { id: 'biz-range' }, a.items.length ? `${from + 1}–${from + a.items.length}${total !== undefined ? ` of ${total}` : ''}` : ''),
        h('button', { id: 'biz-next', disabled: !a.next_cursor, onclick: () => { back.push(current); void show(a.next_cursor); } }, 'Next →'));
    } catch (e) { mount(msg, errorBox(e)); }
  }

  const form = h('form', {
    onsubmit: (ev: Event) => {
      ev.preventDefault();
      const filters: Record<string, unknown> = {};
      if (country.value.trim()) filters.country_code = country.value.trim().toUpperCase();
      if (split(cities.value).length) filters.cities = split(cities.value);
      if (split(types.value).length) filters.types = split(types.value);
      if (rating.value.trim()) filters.rating = rating.value.trim();
      if (website.value) filters.has_website = website.value === 'true';
      body = { limit: Number(limit.value), ...(query.value.trim() ? { query: query.value.trim() } : {}), ...(Object.keys(filters).length ? { filters } : {}) };
      back = [];
      total = undefined;
      void show(null);
    },
  },
  h('label', { for: 'biz-query' }, 'Search'), h('div.row', null, query, h('button.primary', { type: 'submit', id: 'biz-search' }, 'Search')),
  h('div.help', null, 'Write what you are looking for: kinds of business, a place after "in" or "near", a point and a distance ("near 43.73,7.42 within 2 km"), a rating ("rated 4.5+"), a number of reviews ("100+ reviews"), "with a website", "open" or "closed". The fields below narrow the search further; where they say something the search also says, the field wins.'),
  h('div.help', null, 'The businesses come from the map searches run on this service and from OpenStreetMap extracts the operator imports. Each business shown costs one business unit.'),
  h('div.grid', null,
    h('div', null, h('label', { for: 'biz-country' }, 'Country code'), country, h('label', { for: 'biz-cities' }, 'Cities'), cities),
    h('div', null, h('label', { for: 'biz-types' }, 'Types'), types, h('label', { for: 'biz-rating' }, 'Rating'), rating),
    h('div', null, h('label', { for: 'biz-website' }, 'Website'), website, h('label', { for: 'biz-limit' }, 'Page size'), limit)));

  mount(root, h('h1', null, 'Businesses'), h('div.card', null, form, msg), h('div.card', null, parsed, results, pager));
  query.focus();
}

function cell(b: Business, k: keyof Business | 'place'): Node | string {
  if (k === 'place') return [b.city, b.state, b.country_code].filter(Boolean).join(', ');
  const v = b[k];
  if (k === 'site' && typeof v === 'string') return h('a', { href: v, target: '_blank', rel: 'noopener noreferrer' }, v.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, ''));
  return v === null || v === undefined ? '' : String(v);
}

/** No result: how to fill the database (and, when even an empty search finds nothing, that it is empty). */
function emptyHint(databaseEmpty: boolean): HTMLElement {
  return h('div.empty-hint', { id: 'biz-empty' },
    h('strong', null, databaseEmpty ? 'The business database is empty.' : 'No business matches.'),
    h('p', null, databaseEmpty ? 'Fill it in either of two ways:' : 'If the database holds fewer businesses than you expect, fill it in either of two ways:'),
    h('ul', null,
      h('li', null, 'Run map searches (the Run page, ', h('code', null, '/maps/search'), '): every place they find is kept here.'),
      h('li', null, 'Import an OpenStreetMap extract of a country or region (a ', h('code', null, '.osm.pbf'), ' file, from download.geofabrik.de for example) on the server:')),
    h('pre', null, 'npx trawl businesses import monaco-latest.osm.pbf --country MC'));
}
