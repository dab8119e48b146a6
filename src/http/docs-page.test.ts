import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApiDocument } from './openapi.ts';
import { docsPage } from './docs-page.ts';
import { dataEndpoints } from '../contract/endpoints/index.ts';

const page = docsPage(openApiDocument('http://127.0.0.1:8080', ['/maps/search', '/engine-search-events']));

test('the page says which endpoints this deployment serves, and which answer 501', () => {
  // Each served path counts, the versioned paths clients call /maps/search by too.
  assert.match(page, /Serves 4 data endpoints: <a href="#get\/maps\/search"><code>\/maps\/search<\/code><\/a>, <a href="#get\/maps\/search-v2">.*<a href="#get\/engine-search-events">/);
  assert.match(page, /<code>\/maps\/search<\/code> <span class="ok">served here<\/span>/);
  assert.match(page, /<code>\/forum-comments<\/code> <span class="no">not served here \(501\)<\/span>/);
});

test('every data endpoint shows its parameters and its record fields, nested ones too', () => {
  for (const e of dataEndpoints) {
    const at = page.indexOf(`<section id="get${e.path}">`);
    assert.ok(at >= 0, e.path);
    const section = page.slice(at, page.indexOf('</section>', at));
    assert.match(section, /<h3>Parameters<\/h3>/, e.path);
    assert.match(section, /<h3>Record/, e.path);
    for (const p of Object.keys(e.params)) assert.ok(section.includes(`<code>${p}</code>`), `${e.path} parameter ${p}`);
  }
  assert.match(page, /<code>ticket_links\[\]\.link<\/code>/);
  assert.match(page, /<code>start_timestamp<\/code><\/td><td>integer or null<\/td>/);
});

test('descriptions are rendered markdown and cite nothing a reader cannot open', () => {
  assert.doesNotMatch(page, /`/);
  assert.doesNotMatch(page, /\b(decisions?|interface|issue) \d/i);
  assert.match(page, /e.g. <code>Jane Doe example\.com<\/code>/, "a description's backticks became code");
});
