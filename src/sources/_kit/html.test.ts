import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attr, decodeEntities, findAll, first, hasClass, parseHtml, scriptText, select, textOf, textOrNull } from './html.ts';

const PAGE = `<!doctype html><html><head><title>T &amp; t</title>
<script>var x = "<b>" + '</p>';</script><style>p{}</style></head>
<body><ul><li class="card a"><h3>One &ndash; <i>1</i></h3><a href="/x?a=1&amp;b=2">go</a>
<li class="card"><h3>Two</h3><p>line 1<br>line 2</p></ul><div id=e></div></body></html>`;

test('parseHtml is forgiving: unclosed li, unquoted attrs, raw script bodies', () => {
  const doc = parseHtml(PAGE);
  assert.equal(select(doc, 'li.card').length, 2);
  assert.equal(first(doc, '#e')?.name, 'div');
  assert.equal(scriptText(first(doc, 'script')), `var x = "<b>" + '</p>';`);
  assert.equal(select(doc, 'b').length, 0, 'script text is not markup');
  assert.doesNotThrow(() => parseHtml('<div><span></div></p></table><<>>&&&'));
});

test('CSS selectors: lists, attribute operators, :not; a bad selector finds nothing', () => {
  const doc = parseHtml(PAGE);
  assert.deepEqual(select(doc, 'li:not(.a) h3, a[href^="/x"]').map((e) => e.name), ['a', 'h3']);
  assert.equal(select(doc, 'li[').length, 0);
  assert.equal(first(doc, '###'), null);
  assert.equal(first(null, 'li'), null);
});

test('text, attributes and classes', () => {
  const doc = parseHtml(PAGE);
  const [a, b] = select(doc, 'li');
  assert.equal(textOf(first(a, 'h3')), 'One – 1');
  assert.equal(attr(first(a, 'a'), 'HREF'), '/x?a=1&b=2');
  assert.equal(attr(first(a, 'a'), 'title'), null);
  assert.equal(hasClass(a, 'a'), true);
  assert.equal(hasClass(b, 'a'), false);
  assert.equal(textOf(first(b, 'p'), true), 'line 1\nline 2');
  assert.equal(textOf(doc.children.find((c) => c.type === 'tag')), 'T & t One – 1 go Two line 1 line 2');
  assert.equal(textOrNull(first(doc, '#e')), null);
  assert.equal(findAll(doc, (e) => e.name === 'h3').length, 2);
});

test('decodeEntities: named, decimal, hex; text without & is returned as is', () => {
  assert.equal(decodeEntities('a &amp; b &#8211; &#x2022; &eacute;'), 'a & b – • é');
  assert.equal(decodeEntities('plain'), 'plain');
});

test('stray and unclosed tags, raw script with markup-like text, unquoted attributes, unknown entities', () => {
  const root = parseHtml('<div class=a><p>x &amp; y<p>z</span></div><script>if (a<b) "</div>"</script><img src=u.png><li>1<li>2');
  assert.equal(select(root, 'p').length, 2);
  assert.equal(textOf(select(root, '.a')[0]), 'x & y z');
  assert.equal(select(root, 'li').length, 2);
  assert.equal(attr(select(root, 'img')[0], 'src'), 'u.png');
  assert.equal(decodeEntities('&#x2022; &bull; &#8211; &bogus;'), '• • – &bogus;');
});
