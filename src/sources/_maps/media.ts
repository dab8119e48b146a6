/**
 * Images of a place node. `[37][0]` is the photo strip (each `[id, _, type, ..., [6]=[url, caption, ...],
 * ..., [21][6][5][2]=upload source tag]`), `[37][1]` the photo count, `[72][0][1]` the main photo in
 * its large size, `[157]` the business's profile image (its logo).
 */
import { asArr, asInt, at1, at2, at3, at4 } from './pos.ts';
import { cleanUrl } from './text.ts';

/** The main photo: `[72][0][1][6][0]` (the large size), falling back to the first of `[72][0]`. */
export function mainPhoto(node: unknown): string | null {
  const strip = at2(node, 72, 0);
  return cleanUrl(at3(strip, 1, 6, 0)) ?? cleanUrl(at3(strip, 0, 6, 0));
}

/**
 * The street-view image: the strip entry whose upload source is a street-view one, or whose URL
 * carries panorama parameters (`-pi<pitch>-ya<yaw>`). Language-neutral on purpose: the caption
 * ("Street View", "Street view") changes with the page language.
 */
export function streetView(node: unknown): string | null {
  for (const e of asArr(at2(node, 37, 0)) ?? []) {
    const url = cleanUrl(at2(e, 6, 0));
    if (!url) continue;
    const tag = at4(e, 21, 6, 5, 2);
    if ((typeof tag === 'string' && tag.includes('street_view')) || /-pi-?[\d.]+-ya/.test(url)) return url;
  }
  return null;
}

export function logo(node: unknown): string | null {
  return cleanUrl(at1(node, 157));
}

export function photosCount(node: unknown): number | null {
  const n = asInt(at2(node, 37, 1));
  return n !== null && n >= 0 ? n : null;
}
