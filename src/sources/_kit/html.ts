/**
 * HTML pages as a tree: htmlparser2 builds it (forgiving like a browser about stray and unclosed
 * tags, never throws, entities decoded in text and attributes), css-select queries it with real
 * CSS selectors (`li.card > a[href^="/"]`, `:not()`, `,` lists). The helpers below are what a
 * result-page parser needs: visible text, attributes, classes, raw script bodies.
 *
 * @example
 *   const doc = parseHtml(page);
 *   for (const card of select(doc, 'li.result')) textOrNull(first(card, 'h3'));
 */
import { selectAll, selectOne } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import { decodeHTML } from 'entities';
import { parseDocument } from 'htmlparser2';

export type { AnyNode, Document, Element };

/** A node or a list of them to search under. */
export type Scope = AnyNode | AnyNode[] | null | undefined;

/**
 * The tree of a page (or a fragment). Never throws.
 * @example select(parseHtml('<ul><li class="a">x<li>y</ul>'), 'li').length // 2
 */
export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}

/** True for an element node (not text, comment or the document). */
export function isElement(n: AnyNode | null | undefined): n is Element {
  return !!n && (n.type === 'tag' || n.type === 'script' || n.type === 'style');
}

/**
 * Every element under `root` matching the CSS selector list, in document order; [] for a selector
 * css-select cannot read (a typo is a missing field, not a crash).
 * @example select(doc, 'a[href^="https:"], a[href^="/"]')
 */
export function select(root: Scope, css: string): Element[] {
  if (!root) return [];
  try {
    return selectAll(css, root);
  } catch {
    return [];
  }
}

/** The first element under `root` matching `css`, or null. */
export function first(root: Scope, css: string): Element | null {
  if (!root) return null;
  try {
    return selectOne(css, root);
  } catch {
    return null;
  }
}

/** Every element under `root` (document order) for which `pred` holds. */
export function findAll(root: Scope, pred: (e: Element) => boolean): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = (Array.isArray(root) ? [...root] : root ? [...childrenOf(root)] : []).reverse();
  while (stack.length) {
    const x = stack.pop()!;
    if (!isElement(x)) continue;
    if (pred(x)) out.push(x);
    for (let k = x.children.length - 1; k >= 0; k--) stack.push(x.children[k]);
  }
  return out;
}

function childrenOf(n: AnyNode): AnyNode[] {
  return 'children' in n ? n.children : [];
}

/** An attribute's value, or null when the element or the attribute is missing. */
export function attr(e: Element | null | undefined, name: string): string | null {
  const v = e?.attribs[name.toLowerCase()];
  return v === undefined ? null : v;
}

/** True when the element's class list holds `cls`. */
export function hasClass(e: Element | null | undefined, cls: string): boolean {
  const c = e?.attribs.class;
  return !!c && c.split(/\s+/).includes(cls);
}

const BLOCK = /^(address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|footer|h\d|header|hr|li|main|nav|ol|p|pre|section|table|td|th|tr|ul)$/;

/**
 * Visible text: whitespace collapsed, script/style/template skipped. With `lines`, block-level
 * elements (`p`, `li`, `br`, `div`, ...) become line breaks and blank lines drop.
 * @example textOf(first(parseHtml('<p>a <b>b</b> &amp; c</p>'), 'p')) // 'a b & c'
 */
export function textOf(n: AnyNode | null | undefined, lines = false): string {
  if (!n) return '';
  const parts: string[] = [];
  const walk = (x: AnyNode) => {
    if (x.type === 'text') {
      parts.push(x.data);
      return;
    }
    if (x.type === 'script' || x.type === 'style' || x.type === 'comment' || x.type === 'directive') return;
    if (isElement(x) && x.name === 'template') return;
    const sep = isElement(x) && BLOCK.test(x.name) ? (lines ? '\n' : ' ') : '';
    if (sep) parts.push(sep);
    for (const c of childrenOf(x)) walk(c);
    if (sep) parts.push(sep);
  };
  walk(n);
  const raw = parts.join('');
  if (!lines) return raw.replace(/\s+/g, ' ').trim();
  return raw
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Visible text, or null when there is none. */
export function textOrNull(n: AnyNode | null | undefined): string | null {
  return textOf(n) || null;
}

/**
 * The raw body of a `<script>`/`<style>` element (not entity-decoded, as the browser reads it).
 * @example scriptText(first(doc, 'script#__NEXT_DATA__'))
 */
export function scriptText(e: Element | null | undefined): string {
  if (!e) return '';
  let s = '';
  for (const c of e.children) if (c.type === 'text') s += c.data;
  return s;
}

/**
 * Decodes HTML character references (named, decimal, hex), as in text outside the tree.
 * @example decodeEntities('a &amp; b &#8211; &#x2022; &nbsp;') // 'a & b – • \u00a0'
 */
export function decodeEntities(s: string): string {
  return s.indexOf('&') < 0 ? s : decodeHTML(s);
}
