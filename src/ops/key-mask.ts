/**
 * The last net under every log line: anything that is a trawl key once decoded, however a client, a
 * proxy or a browser spelled it (issue 28 and 39): the prefix in any case, percent-encoded once or
 * many times (`trw%255F…`, `%2574%2572%2577%255F…`), HTML entities (`trw&#95;…`, `&lowbar;`,
 * `&amp;#95;`), and the secret without its prefix (32 base64url characters of both cases: what
 * `newApiKey` draws after `trw_`; webhook secrets too).
 *
 * A run of characters that can spell a key (letters, digits, `_-` and the escape characters `%&#;`)
 * is decoded to a fixed point; when the decoded text holds a key the whole run is masked, so no part
 * of an encoded key survives beside the mask. A plain run is masked in place.
 *
 * @example maskKeys('GET /x?q=trw%255Fabc') // 'GET /x?q=[redacted]'
 */
import { decodeHTML } from 'entities';

const MASK = '[redacted]';
/** The prefix and what follows, as the server writes keys (decoded text). */
const KEY = /trw_[a-z0-9_-]+/gi;
/** The prefix in plain text or percent-encoded once, the rest with percent escapes (issue 28's net). */
const KEY_ONCE = /(?:t|%74)(?:r|%72)(?:w|%77)(?:_|%5f)(?:[a-z0-9_-]|%[0-9a-f]{2})+/gi;
/** A key's secret alone: 24 random bytes in base64url are 32 characters, both cases (a run of one
 *  case only is a hex digest or a word, not a drawn secret). */
const BARE = /(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]{0,31}[a-z])(?=[A-Za-z0-9_-]{0,31}[A-Z])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])/g;
/** A secret's length: a spelling is never shorter than what it spells, so only runs this long are
 *  decoded and looked at. */
const SECRET = 32;
const ROUNDS = 16;

/** Percent-escapes and HTML entities decoded until nothing changes; null when that takes more than
 *  ROUNDS passes (no client nests escapes that deep: such a run is masked whole). */
export function decodeFully(s: string): string | null {
  let cur = s;
  for (let i = 0; i < ROUNDS; i++) {
    const next = decodeHTML(cur.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));
    if (next === cur) return cur;
    cur = next;
  }
  return null;
}

const holdsKey = (decoded: string): boolean => {
  KEY.lastIndex = 0;
  BARE.lastIndex = 0;
  return KEY.test(decoded) || BARE.test(decoded);
};

/** Characters that can spell a key, escapes included: `A-Za-z0-9_-%&#;`. */
const SPELLS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-%&#;') SPELLS[c.charCodeAt(0)] = 1;
const spells = (c: number) => c < 128 && SPELLS[c] === 1;

/** `text` with every key, in any spelling above, replaced by `[redacted]`. Runs are found by a loop:
 *  a regular expression's `[…]{32,}` tries 32 characters at every position, 30 times the cost. */
export function maskKeys(text: string): string {
  let out = '';
  let from = 0;
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && spells(text.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= SECRET) {
      const run = text.slice(start, i);
      const masked = maskRun(run);
      if (masked !== run) {
        out += text.slice(from, start) + masked;
        from = i;
      }
    }
    start = -1;
  }
  const whole = from === 0 ? text : out + text.slice(from);
  // The prefix with a tail of any length (`trw_wrong_key`), in runs too short to be looked at above.
  return whole.replace(KEY_ONCE, MASK);
}

/** A run with escapes is decoded and masked whole when it holds a key; a plain one is a bare secret
 *  only when it is one (32 characters of both cases: longer, it is something else that runs on). */
function maskRun(run: string): string {
  if (run.includes('%') || run.includes('&')) {
    const decoded = decodeFully(run);
    return decoded === null || holdsKey(decoded) ? MASK : run;
  }
  // `;` and `#` end an entity's name: `q=trw&lowbar;<secret>` is read as a parameter named
  // `lowbar;<secret>`, which a log line may quote.
  if (run.includes(';') || run.includes('#')) return run.split(/([;#])/).map((t) => (isSecret(t) ? MASK : t)).join('');
  return isSecret(run) ? MASK : run;
}

const isSecret = (t: string) => t.length === SECRET && /[a-z]/.test(t) && /[A-Z]/.test(t);
