/**
 * E-mail addresses in a web page's text and attributes, including the usual obfuscations:
 * `name [at] domain [dot] com`, `name (at) domain (dot) com`, `name AT domain DOT com` (upper-case
 * words only, so prose is not read as addresses), HTML entities (decoded by the parser), and
 * Cloudflare's e-mail protection (`data-cfemail` / `/cdn-cgi/l/email-protection#<hex>`).
 */

const EMAIL = /[a-z0-9][a-z0-9._%+-]{0,63}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.[a-z]{2,24}/gi;
// Case-sensitive on purpose: bracketed `at`/`dot` in any case, bare words only in capitals.
const AT = String.raw`\s*(?:[[({]\s*(?:at|AT|At)\s*[\])}]|\sAT\s|\s?@\s?)\s*`;
const DOT = String.raw`\s*(?:[[({]\s*(?:dot|DOT|Dot)\s*[\])}]|\sDOT\s|\.)\s*`;
const OBFUSCATED = new RegExp(String.raw`([A-Za-z0-9][A-Za-z0-9._%+-]{0,63})${AT}([A-Za-z0-9-]{1,63}(?:${DOT}[A-Za-z0-9-]{1,63})*${DOT}[A-Za-z]{2,24})\b`, 'g');
/** File names that look like addresses (`logo@2x.png`). */
const NOT_TLD = /\.(png|jpe?g|gif|svg|webp|avif|css|js|ico|woff2?)$/i;

/** Decodes one Cloudflare-protected address: the first byte is the XOR key of the rest. */
export function decodeCfEmail(hex: string): string | null {
  if (!/^(?:[0-9a-f]{2}){2,}$/i.test(hex)) return null;
  const key = parseInt(hex.slice(0, 2), 16);
  let out = '';
  for (let i = 2; i < hex.length; i += 2) out += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16) ^ key);
  return out.includes('@') ? out : null;
}

export function cleanEmail(s: string): string | null {
  const e = s.trim().replace(/^mailto:/i, '').split('?')[0].trim().toLowerCase();
  try {
    const d = decodeURIComponent(e);
    return /^[^@\s]+@[^@\s]+\.[a-z]{2,24}$/.test(d) && !NOT_TLD.test(d) ? d : null;
  } catch {
    return null;
  }
}

/** Where an address can be: an `@` or an `at` marker. Every match of EMAIL and OBFUSCATED holds one. */
const ANCHOR = new RegExp(String.raw`@|[[({]\s*(?:at|AT|At)\s*[\])}]|\sAT\s`, 'g');
/** Text around an anchor that a match can span: a local part (64) and padding before it, a domain after. */
const BEFORE = 128;
const AFTER = 512;

/**
 * The parts of `text` an address can be in: windows around each anchor, merged where they touch.
 * Both patterns start at every letter and read up to 64 characters before failing, so scanning a
 * whole page costs about 64 steps a character; pages mostly have no anchor at all.
 */
function anchorWindows(text: string): string[] {
  const out: string[] = [];
  let from = -1;
  let to = -1;
  for (const m of text.matchAll(ANCHOR)) {
    const a = Math.max(0, m.index - BEFORE);
    const b = Math.min(text.length, m.index + m[0].length + AFTER);
    if (from >= 0 && a <= to) { to = b; continue; }
    if (from >= 0) out.push(text.slice(from, to));
    from = a;
    to = b;
  }
  if (from >= 0) out.push(text.slice(from, to));
  return out;
}

/** Addresses in free text: plain ones in order of appearance, then obfuscated ones. */
export function emailsInText(text: string): string[] {
  const out: string[] = [];
  const windows = anchorWindows(text);
  for (const w of windows) for (const m of w.matchAll(EMAIL)) out.push(m[0]);
  for (const w of windows) {
    for (const m of w.matchAll(OBFUSCATED)) {
      if (m[0].includes('@') && !/\[|\(|\{/.test(m[0])) continue; // plain: found above
      const domain = m[2].replace(new RegExp(DOT, 'g'), '.');
      out.push(`${m[1]}@${domain}`);
    }
  }
  return out.map(cleanEmail).filter((e): e is string => e !== null);
}
