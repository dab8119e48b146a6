/**
 * Links the record carries: those built the way the interface's product builds them, and the
 * booking/ordering links the node holds.
 */
import { asArr, asStr, at1, at2, at3 } from './pos.ts';
import type { OrderLink } from './record.ts';
import { cleanUrl, formEncode, text } from './text.ts';

/**
 * The product's place link: name form-encoded, `@lat,lng,14z` camera, and a `data=` that names the
 * search phrase (here the name) and the feature id with its coordinates:
 * `https://www.google.com/maps/place/<name>/@<lat>,<lng>,14z/data=!4m8!1m2!2m1!1s<name>!3m4!1s<engine_id>!8m2!3d<lat>!4d<lng>`
 *
 * @example
 *   locationLink('Colonie', '0x89c25a4590b8c863:0xc4a4271f166de1e2', 40.6908464, -73.9958422)
 *   // 'https://www.google.com/maps/place/Colonie/@40.6908464,-73.9958422,14z/data=!4m8!1m2!2m1!1sColonie!3m4!1s0x89c25a4590b8c863:0xc4a4271f166de1e2!8m2!3d40.6908464!4d-73.9958422'
 */
export function locationLink(name: string | null, engineId: string | null, lat: number | null, lng: number | null): string | null {
  if (!name || !engineId || lat === null || lng === null) return null;
  const n = formEncode(name);
  // Each coordinate is printed twice: convert it once.
  const la = String(lat);
  const ln = String(lng);
  return `https://www.google.com/maps/place/${n}/@${la},${ln},14z/data=!4m8!1m2!2m1!1s${n}!3m4!1s${engineId}!8m2!3d${la}!4d${ln}`;
}

/**
 * The reviews page link. The node's own (`[4][3][0]`) has exactly the product's form
 * (`https://search.google.com/local/reviews?placeid=<place_id>&q=<phrase>&authuser=0&hl=<hl>&gl=<gl>`),
 * so it is used as is; without it the same form is built from the place id.
 *
 * @example
 *   reviewsLink(node, 'ChIJ...', 'Kipriakon', { language: 'en', region: 'CY' })
 */
export function reviewsLink(
  node: unknown,
  placeId: string | null,
  phrase: string | null,
  opts: { language?: string | null; region?: string | null },
): string | null {
  const own = cleanUrl(at3(node, 4, 3, 0));
  if (own) return own;
  if (!placeId) return null;
  const q = phrase ? `&q=${formEncode(phrase)}` : '';
  const gl = opts.region ? `&gl=${encodeURIComponent(opts.region)}` : '';
  return `https://search.google.com/local/reviews?placeid=${encodeURIComponent(placeId)}${q}&authuser=0&hl=${encodeURIComponent(opts.language ?? 'en')}${gl}`;
}

/**
 * @example
 *   ownerLink('102769814432182832009') // 'https://www.google.com/maps/contrib/102769814432182832009'
 */
export function ownerLink(ownerId: string | null): string | null {
  return ownerId ? `https://www.google.com/maps/contrib/${ownerId}` : null;
}

/**
 * Provider groups at `[75][0]`: `[group type, _, [[[provider domain], _, [_, _, [url]]]...], _, code]`.
 * Group type 1 lists table-booking providers (they also appear at `[46]`); other types are
 * ordering (delivery, pickup). Returns both lists; null for a list the node does not hold.
 */
export function providerLinks(node: unknown): { order: OrderLink[] | null; reserve: string[] | null } {
  const groups = asArr(at2(node, 75, 0));
  if (!groups) return { order: null, reserve: null };
  const order: OrderLink[] = [];
  const reserve: string[] = [];
  for (const g of groups) {
    const type = at1(g, 0);
    for (const p of asArr(at1(g, 2)) ?? []) {
      const source = text(asStr(at2(p, 0, 0)));
      const link = cleanUrl(at3(p, 1, 2, 0));
      if (!source || !link) continue;
      if (type === 1) reserve.push(link);
      else if (!order.some((o) => o.link === link)) order.push({ source, link });
    }
  }
  return { order: order.length ? order : null, reserve: reserve.length ? reserve : null };
}

/**
 * Booking links at `[46]`: `[[url, provider domain, ...]...]`, merged with type-1 provider links,
 * without duplicates.
 */
export function reservationLinks(node: unknown, fromProviders: string[] | null): string[] | null {
  const out: string[] = [];
  for (const e of asArr(at1(node, 46)) ?? []) {
    const u = cleanUrl(at1(e, 0));
    if (u && !out.includes(u)) out.push(u);
  }
  for (const u of fromProviders ?? []) if (!out.includes(u)) out.push(u);
  return out.length ? out : null;
}
