/**
 * `/engine-search-events` parse (pure). Two readers, tried in order:
 *  1. event cards of the vertical's list (`li.PaEvOc`; title `[jsname=r4nke]`/`.YOGjf`, date line
 *     `.Gkoz3`/`.cEPPT`, day `.UIaQzd` + month `.wsnHcb`, venue `.RVclrc`, address lines
 *     `.zvDXNd`/`.U6txu`, description `.PVlUWc`, tickets `.MwDRlf a`/`.SKIyM a`, venue map link
 *     `.pzNwRe a` carrying `ludocid`) - class names from public scrapers, not from a capture;
 *  2. schema.org `Event` objects in JSON-LD blocks.
 * A page with neither, and no "can't find events" wording, is `layout_changed`.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { first, parseHtml, select, textOf, textOrNull, type Element } from '../_kit/html.ts';
import { jsonLd, isLdType, ldText } from '../_kit/jsonld.ts';
import { relativeToUnix, responseTime, toUnix } from '../_kit/dates.ts';
import { eventsPageStep } from './plan.ts';
import { EMPTY_MARKERS, unwrapLink } from '../_search/serp.ts';
import type { EventRecord, EventsParams, TicketLink } from './record.ts';

type Ctx = QueryContext<EventsParams>;

function hostOf(link: string): string | null {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

function imgSrc(card: Element): string | null {
  for (const img of select(card, 'img')) {
    const s = img.attribs['data-src'] || img.attribs.src;
    if (s && !s.startsWith('data:')) return unwrapLink(s);
  }
  return null;
}

function cardToEvent(card: Element, query: string): EventRecord | null {
  const title = textOrNull(first(card, '[jsname=r4nke], .YOGjf, .dEuIWb'));
  if (!title) return null;
  const when = textOrNull(first(card, '.Gkoz3, .cEPPT'));
  const day = textOrNull(first(card, '.UIaQzd'));
  const month = textOrNull(first(card, '.wsnHcb'));
  const venue = textOrNull(first(card, '.RVclrc'));
  let address = select(card, '.zvDXNd').map((e) => textOf(e)).filter(Boolean);
  if (!address.length) address = [venue, textOrNull(first(card, '.U6txu'))].filter((x): x is string => !!x);
  const tickets: TicketLink[] = [];
  for (const a of select(card, '.MwDRlf a, .SKIyM a')) {
    const link = unwrapLink(a.attribs.href);
    if (link && !tickets.some((t) => t.link === link)) tickets.push({ source: textOrNull(a) ?? hostOf(link), link });
  }
  const mapHref = first(card, '.pzNwRe a')?.attribs.href ?? '';
  const cid = /[?&]ludocid=(\d+)/.exec(mapHref)?.[1] ?? null;
  return {
    query,
    title,
    date_start: month && day ? `${month} ${day}` : when ? when.split(',').slice(0, 2).join(',').trim() : null,
    date_when: when,
    start_timestamp: null,
    end_timestamp: null,
    address,
    venue_name: venue,
    venue_cid: cid,
    description: textOrNull(first(card, '.PVlUWc')),
    link: tickets[0]?.link ?? null,
    ticket_links: tickets,
    thumbnail: imgSrc(card),
  };
}

function ldAddress(loc: unknown): { venue: string | null; lines: string[] } {
  const l = (Array.isArray(loc) ? loc[0] : loc) as Record<string, unknown> | undefined;
  if (!l || typeof l !== 'object') return { venue: ldText(loc), lines: ldText(loc) ? [ldText(loc)!] : [] };
  const venue = ldText(l.name);
  const a = l.address as Record<string, unknown> | string | undefined;
  const line = typeof a === 'string' ? ldText(a) : a && typeof a === 'object'
    ? [a.streetAddress, a.addressLocality, a.postalCode, a.addressCountry].map(ldText).filter(Boolean).join(', ') || null
    : null;
  return { venue, lines: [venue, line].filter((x): x is string => !!x) };
}

function ldToEvent(o: Record<string, unknown>, query: string): EventRecord | null {
  const title = ldText(o.name);
  if (!title) return null;
  const { venue, lines } = ldAddress(o.location);
  const offers = (Array.isArray(o.offers) ? o.offers : o.offers ? [o.offers] : []) as Array<Record<string, unknown>>;
  const tickets: TicketLink[] = [];
  for (const of of offers) {
    const link = typeof of?.url === 'string' ? unwrapLink(of.url) : null;
    if (link) tickets.push({ source: hostOf(link), link });
  }
  const image = Array.isArray(o.image) ? o.image[0] : o.image;
  const start = ldText(o.startDate);
  return {
    query,
    title,
    date_start: start ? start.slice(0, 10) : null,
    date_when: [start, ldText(o.endDate)].filter(Boolean).join(' – ') || null,
    start_timestamp: toUnix(o.startDate),
    end_timestamp: toUnix(o.endDate),
    address: lines,
    venue_name: venue,
    venue_cid: null,
    description: ldText(o.description),
    link: (typeof o.url === 'string' ? unwrapLink(o.url) : null) ?? tickets[0]?.link ?? null,
    ticket_links: tickets,
    thumbnail: typeof image === 'string' ? image : typeof (image as Record<string, unknown>)?.url === 'string' ? String((image as Record<string, unknown>).url) : null,
  };
}

/**
 * The events of one results page, in page order.
 * @example eventsOfHtml(html, 'jazz').length
 */
export function eventsOfHtml(html: string, query: string): EventRecord[] | null {
  const root = parseHtml(html);
  const cards = select(root, 'li.PaEvOc, div.PaEvOc, .gws-horizon-textlists__li-ed');
  const fromCards = cards.map((c) => cardToEvent(c, query)).filter((e): e is EventRecord => e !== null);
  if (fromCards.length) return fromCards;
  const fromLd = jsonLd(html)
    .filter((o) => typeof o['@type'] === 'string' ? /Event$/.test(o['@type'] as string) : Array.isArray(o['@type']) && (o['@type'] as unknown[]).some((t) => typeof t === 'string' && /Event$/.test(t)))
    .map((o) => ldToEvent(o, query))
    .filter((e): e is EventRecord => e !== null);
  if (fromLd.length) return fromLd;
  return EMPTY_MARKERS.test(textOf(root)) ? [] : null;
}

/**
 * Step + response → events and the next page while pages hold events.
 * @example parse(step, res, { query: 'jazz', params: { pagesPerQuery: 2 } }).next?.length
 */
export function parse(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<EventRecord> {
  if (step.kind !== 'events-page') throw new SourceError('layout_changed', `search-events: unknown step kind ${step.kind}`);
  const events = eventsOfHtml(res.body, ctx.query);
  if (events === null) throw new SourceError('layout_changed', 'events page holds no event cards, no schema.org events and no "no events" notice');
  const page = Number(step.state?.page ?? 0);
  const pages = Math.max(1, ctx.params.pagesPerQuery ?? 1);
  const next = events.length > 0 && page + 1 < pages ? [eventsPageStep(ctx.query.trim(), page + 1, ctx.params)] : [];
  return { records: events, next };
}
