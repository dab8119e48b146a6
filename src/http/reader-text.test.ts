import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentWithoutCitations, markdownHtml, withoutCitations } from './reader-text.ts';

test('citations of internal documents are dropped, the rule stays', () => {
  assert.equal(withoutCitations('Place (interface 2.3).'), 'Place.');
  assert.equal(withoutCitations('E-mail verification (interface 2.5, decision 24).'), 'E-mail verification.');
  assert.equal(withoutCitations('0 means "not given" (decision 2: `cutoff=0`, as some clients send)'), '0 means "not given" (`cutoff=0`, as some clients send)');
  assert.equal(withoutCitations('Business directory review; next_page_cursor per decision 23.'), 'Business directory review; next_page_cursor.');
  assert.equal(withoutCitations('Decision 24: map reviews'), 'Map reviews');
  assert.equal(withoutCitations('account operations (interface 4.6-4.9)'), 'Account operations');
  assert.equal(withoutCitations('No citation (a 5 star rating).'), 'No citation (a 5 star rating).');
  const doc = documentWithoutCitations({ info: { description: 'A (decision 6).' }, x: [{ summary: 'B (issue 10).', enum: ['decision 1'] }] });
  assert.deepEqual(doc, { info: { description: 'A.' }, x: [{ summary: 'B.', enum: ['decision 1'] }] });
});

test('markdown: code, bold, emphasis, safe links, lists, paragraphs; HTML is escaped', () => {
  assert.equal(markdownHtml('Use `a<b>` and **bold** or *it*.'), '<p>Use <code>a&lt;b&gt;</code> and <b>bold</b> or <i>it</i>.</p>');
  assert.equal(markdownHtml('[docs](https://x.example/a) [bad](javascript:alert(1))'), '<p><a href="https://x.example/a">docs</a> [bad](javascript:alert(1))</p>');
  assert.equal(markdownHtml('one\ntwo\n\n- a\n- b'), '<p>one<br>two</p><ul><li>a</li><li>b</li></ul>');
  assert.equal(markdownHtml('<script>x</script> `**not bold**`'), '<p>&lt;script&gt;x&lt;/script&gt; <code>**not bold**</code></p>');
  assert.equal(markdownHtml('a*b*c 2 * 3'), '<p>a*b*c 2 * 3</p>');
});
