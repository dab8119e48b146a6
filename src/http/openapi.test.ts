import { test } from 'node:test';
import assert from 'node:assert/strict';
import { declaredDocument, openApiDocument } from './openapi.ts';

/** Every `description` and `summary` of a document, with where it sits. */
function texts(doc: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (v: unknown, key: string, at: string): void => {
    if (typeof v === 'string') {
      if (key === 'description' || key === 'summary') out.push([at, v]);
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, '', `${at}/${i}`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k, `${at}/${k}`);
  };
  walk(doc, '', '');
  return out;
}

// A reader of /docs or /openapi.json cannot open the project's decision or interface documents, so
// the declarations state each rule itself. Checked on the document as declared: the stripping in
// openApiDocument is only a safety net and would hide a new citation.
test('no description or summary of the declared document cites an internal document', () => {
  const all = texts(declaredDocument('http://127.0.0.1:8080', ['/maps/search']));
  assert.ok(all.length > 500, `only ${all.length} descriptions found: the walk is broken`);
  const cites = all.filter(([, t]) => /decision|\b(interface|issue|section|records)\s+\d/i.test(t));
  assert.deepEqual(cites, []);
});

test('the served document is the declared one: the safety net has nothing to strip', () => {
  assert.deepEqual(openApiDocument('http://x', ['/maps/search']), declaredDocument('http://x', ['/maps/search']));
});
