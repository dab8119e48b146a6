/**
 * The `pb` parameter of the map search (`/search?tbm=map`): the product's protobuf-in-URL format.
 * Each field is `!<field number><type><value>`; type `m` opens a message whose value is the number of
 * fields that follow inside it, `d`/`f` are doubles/floats, `i` integers, `b` booleans, `e` enums,
 * `s` strings. The parts we set:
 *
 * ```
 * !4m12                      viewport message, 12 fields:
 *   !1m3!1d<alt>!2d<lng>!3d<lat>   camera: altitude in metres, longitude, latitude
 *   !2m3!1f0!2f0!3f0              heading, tilt, roll
 *   !3m2!1i<w>!2i<h>              viewport size in pixels
 *   !4f<fov>                      vertical field of view in degrees (13.1, as the product's URLs)
 * !7i20                      page size
 * !8i<offset>                index of the first result (0, 20, 40 ... up to ~100)
 * ```
 * followed by a fixed tail of result options (`!10b1!12m22...!19m4...`: which parts of each place
 * the response carries, thumbnail size 360x120), as public clients send it (learned from
 * gosom/google-maps-scraper's search job; a protocol fact, not code).
 */
import { altitudeFor, center, FOV_DEG, VIEW_H, VIEW_W, type Box } from './cells.ts';

export const PAGE_SIZE = 20;

const TAIL =
  '!10b1!12m22!1m3!18b1!30b1!34e1!2m3!5m1!6e2!20e3!4b0!10b1!12b1!13b1!16b1!17m1!3e1!20m3!5e2!6b1!14b1!46m1!1b0!96b1' +
  '!19m4!2m3!1i360!2i120!4i8';

/** Shortest decimal with at most `digits` fraction digits ("23.7", not "23.7000000"). */
function dec(v: number, digits: number): string {
  return String(Number(v.toFixed(digits)));
}

/**
 * @example
 *   buildPb({ s: 37.99, w: 23.68, n: 38.01, e: 23.72 }, 40)
 *   // '!4m12!1m3!1d2795.5!2d23.7!3d38!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1!7i20!8i40!10b1...'
 */
export function buildPb(view: Box, offset: number): string {
  const c = center(view);
  return (
    `!4m12!1m3!1d${dec(altitudeFor(view), 2)}!2d${dec(c.lng, 7)}!3d${dec(c.lat, 7)}` +
    `!2m3!1f0!2f0!3f0!3m2!1i${VIEW_W}!2i${VIEW_H}!4f${FOV_DEG}` +
    `!7i${PAGE_SIZE}!8i${Math.max(0, Math.trunc(offset))}` +
    TAIL
  );
}

/**
 * Reads the camera and paging back out of a pb (for tests, logs and `trawl parse`).
 *
 * @example
 *   readPb(buildPb(box, 20)) // { altitude: ..., lat: ..., lng: ..., fov: 13.1, pageSize: 20, offset: 20 }
 */
export function readPb(pb: string): { altitude: number; lat: number; lng: number; fov: number; pageSize: number; offset: number } | null {
  const m = /^!4m12!1m3!1d([\d.]+)!2d(-?[\d.]+)!3d(-?[\d.]+)!2m3!1f0!2f0!3f0!3m2!1i\d+!2i\d+!4f([\d.]+)!7i(\d+)!8i(\d+)/.exec(pb);
  if (!m) return null;
  return { altitude: Number(m[1]), lng: Number(m[2]), lat: Number(m[3]), fov: Number(m[4]), pageSize: Number(m[5]), offset: Number(m[6]) };
}
