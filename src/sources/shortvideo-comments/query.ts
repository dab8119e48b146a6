/**
 * Query items of `/shortvideo-comments`: a bare video id, a video link (`/@user/video/<id>`,
 * `/@user/photo/<id>`, `m.tiktok.com/v/<id>.html`, `/embed/v2/<id>`), or a short link (`vm.`/`vt.`
 * hosts, `www.tiktok.com/t/<code>`) that only the site's redirect turns into a video link.
 */
export type VideoQuery = { kind: 'id'; videoId: string } | { kind: 'short'; url: string };

const ID = /^\d{8,24}$/;
const TIKTOK_HOST = /(^|\.)tiktok\.com$/i;
const SHORT_HOST = /^(vm|vt)\.tiktok\.com$/i;
/** Path forms that name the video id. */
const ID_PATHS = [/\/@[^/]*\/(?:video|photo)\/(\d{8,24})/, /^\/v\/(\d{8,24})(?:\.html)?/, /^\/embed(?:\/v2)?\/(\d{8,24})/, /^\/share\/video\/(\d{8,24})/];

/**
 * The video id a link names, or null.
 * @example videoIdOfUrl('https://www.tiktok.com/@scout/video/7106594312292453675?lang=en') // '7106594312292453675'
 */
export function videoIdOfUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!TIKTOK_HOST.test(u.hostname)) return null;
  for (const re of ID_PATHS) {
    const m = re.exec(u.pathname);
    if (m) return m[1];
  }
  return null;
}

/**
 * Reads one query item; a message says why it is not one.
 * @example classifyQuery('vm.tiktok.com/ZMabc/') // { kind: 'short', url: 'https://vm.tiktok.com/ZMabc/' }
 */
export function classifyQuery(raw: string): VideoQuery | string {
  const q = raw.trim();
  if (ID.test(q)) return { kind: 'id', videoId: q };
  const withScheme = /^https?:\/\//i.test(q) ? q : `https://${q}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return `query "${raw.slice(0, 100)}" is neither a video id nor a video link`;
  }
  const id = videoIdOfUrl(u.href);
  if (id) return { kind: 'id', videoId: id };
  if (SHORT_HOST.test(u.hostname) || (TIKTOK_HOST.test(u.hostname) && /^\/t\/[\w-]+/.test(u.pathname))) {
    u.protocol = 'https:';
    return { kind: 'short', url: u.href };
  }
  return `query "${raw.slice(0, 100)}" is neither a video id nor a video link (/@user/video/<id>, vm./vt. short link)`;
}
