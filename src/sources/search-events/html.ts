/**
 * A small, forgiving HTML tree builder for result pages: tags, attributes and text, nothing else.
 * It never throws: stray end tags are ignored, unclosed tags close at their parent's end,
 * `<script>`/`<style>` bodies stay raw text. (No HTML parser is a declared dependency; cheerio and
 * htmlparser2 are only present transitively through a dev tool.)
 */

export interface El {
  tag: string;
  attrs: Record<string, string>;
  children: Array<El | string>;
  parent: El | null;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW = new Set(['script', 'style', 'textarea', 'title']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '–', mdash: '—', bull: '•', middot: '·', hellip: '…', rsquo: '’', lsquo: '‘', ldquo: '“', rdquo: '”', euro: '€', pound: '£' };

/**
 * Decodes character references.
 * @example decodeEntities('a &amp; b &#8211; &#x2022;') // 'a & b – •'
 */
export function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return NAMED[e.toLowerCase()] ?? m;
  });
}

const ATTR = /([^\s"'<>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function parseAttrs(src: string): Record<string, string> {
  const out: Record<string, string> = {};
  ATTR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTR.exec(src))) {
    const name = m[1].toLowerCase();
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/**
 * Builds the tree of a page.
 * @example parseHtml('<ul><li class="a">x<li>y</ul>').children.length // 1
 */
export function parseHtml(html: string): El {
  const root: El = { tag: '#root', attrs: {}, children: [], parent: null };
  let cur = root;
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      cur.children.push(decodeEntities(html.slice(i)));
      break;
    }
    if (lt > i) cur.children.push(decodeEntities(html.slice(i, lt)));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (html[lt + 1] === '!' || html[lt + 1] === '?') {
      const end = html.indexOf('>', lt);
      i = end < 0 ? n : end + 1;
      continue;
    }
    const close = html[lt + 1] === '/';
    const nameMatch = /^[a-zA-Z][a-zA-Z0-9:-]*/.exec(html.slice(lt + (close ? 2 : 1), lt + 40));
    if (!nameMatch) {
      cur.children.push('<');
      i = lt + 1;
      continue;
    }
    const tag = nameMatch[0].toLowerCase();
    // End of the tag: the first '>' outside quotes.
    let j = lt + 1 + (close ? 1 : 0) + tag.length;
    let q: string | null = null;
    for (; j < n; j++) {
      const c = html[j];
      if (q) {
        if (c === q) q = null;
      } else if (c === '"' || c === "'") q = c;
      else if (c === '>') break;
    }
    const inner = html.slice(lt + 1 + (close ? 1 : 0) + tag.length, j);
    i = j + 1;
    if (close) {
      // Close the nearest open element of that name; ignore a stray end tag.
      for (let e: El | null = cur; e && e !== root; e = e.parent) {
        if (e.tag === tag) {
          cur = e.parent ?? root;
          break;
        }
      }
      continue;
    }
    const el: El = { tag, attrs: parseAttrs(inner.replace(/\/\s*$/, '')), children: [], parent: cur };
    // A new <li>/<p>/<option> closes an open sibling of the same kind, as browsers do.
    if ((tag === 'li' || tag === 'p' || tag === 'option') && cur.tag === tag && cur.parent) {
      cur = cur.parent;
      el.parent = cur;
    }
    cur.children.push(el);
    if (VOID.has(tag) || /\/\s*$/.test(inner)) continue;
    if (RAW.has(tag)) {
      const end = html.toLowerCase().indexOf(`</${tag}`, i);
      const stop = end < 0 ? n : end;
      const body = html.slice(i, stop);
      el.children.push(tag === 'script' || tag === 'style' ? body : decodeEntities(body));
      const gt = end < 0 ? n : html.indexOf('>', end);
      i = gt < 0 ? n : gt + 1;
      continue;
    }
    cur = el;
  }
  return root;
}

/** Every element below `root` (document order) for which `pred` holds. */
export function findAll(root: El, pred: (e: El) => boolean): El[] {
  const out: El[] = [];
  const stack: Array<El | string> = [...root.children].reverse();
  while (stack.length) {
    const x = stack.pop()!;
    if (typeof x === 'string') continue;
    if (pred(x)) out.push(x);
    for (let k = x.children.length - 1; k >= 0; k--) stack.push(x.children[k]);
  }
  return out;
}

export function hasClass(e: El, cls: string): boolean {
  const c = e.attrs.class;
  return !!c && ` ${c} `.replace(/\s+/g, ' ').includes(` ${cls} `);
}

/**
 * First element matching a tiny selector: `.a.b` (all classes), `tag.a`, `[attr=value]`, `tag`.
 * @example first(card, '.tNxQIb.PUpOsf')
 */
export function matches(e: El, sel: string): boolean {
  const m = /^([a-z0-9]*)((?:\.[\w-]+)*)(?:\[([\w-]+)(?:([*^]?=)"?([^"\]]*)"?)?\])?$/i.exec(sel.trim());
  if (!m) return false;
  const [, tag, classes, attr, op, val] = m;
  if (tag && e.tag !== tag.toLowerCase()) return false;
  for (const c of classes.split('.').filter(Boolean)) if (!hasClass(e, c)) return false;
  if (attr) {
    const v = e.attrs[attr.toLowerCase()];
    if (v === undefined) return false;
    if (op === '=' && v !== val) return false;
    if (op === '*=' && !v.includes(val)) return false;
    if (op === '^=' && !v.startsWith(val)) return false;
  }
  return true;
}

/** Elements under `root` matching one selector; spaces are descendant combinators (`.a b`). */
function selectOne(root: El, selector: string): El[] {
  let scope: El[] = [root];
  for (const part of selector.split(/\s+/).filter(Boolean)) {
    const found = new Set<El>();
    for (const s of scope) for (const e of findAll(s, (x) => matches(x, part))) found.add(e);
    scope = [...found];
  }
  return scope.filter((e) => e !== root);
}

/** All elements under `root` matching any of the selectors (comma-separated), document order. */
export function select(root: El, selectors: string): El[] {
  const list = selectors.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.every((s) => !/\s/.test(s))) return findAll(root, (e) => list.some((s) => matches(e, s)));
  const hit = new Set<El>();
  for (const s of list) for (const e of selectOne(root, s)) hit.add(e);
  return findAll(root, (e) => hit.has(e));
}

export function first(root: El, selectors: string): El | null {
  return select(root, selectors)[0] ?? null;
}

/**
 * Visible text of an element: whitespace collapsed, script/style skipped; block-level children
 * separated by newlines when `lines` is set.
 * @example textOf(parseHtml('<p>a <b>b</b></p>')) // 'a b'
 */
export function textOf(e: El | null, lines = false): string {
  if (!e) return '';
  const parts: string[] = [];
  const walk = (x: El | string) => {
    if (typeof x === 'string') {
      parts.push(x);
      return;
    }
    if (x.tag === 'script' || x.tag === 'style') return;
    const sep = /^(div|p|li|br|h\d|ul|ol|tr|td)$/.test(x.tag) ? (lines ? '\n' : ' ') : '';
    if (sep) parts.push(sep);
    for (const c of x.children) walk(c);
    if (sep) parts.push(sep);
  };
  walk(e);
  const raw = parts.join('');
  if (!lines) return raw.replace(/\s+/g, ' ').trim();
  return raw
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Text or null when empty. */
export function textOrNull(e: El | null): string | null {
  const t = textOf(e);
  return t ? t : null;
}
