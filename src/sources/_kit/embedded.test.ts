import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apolloObjects, apolloState, assignedJson, findValues, jsonScript, jsonScripts, literalEnd, nextData, nextFlight, parseLooseJson, resolveRefs, scripts } from './embedded.ts';

test('literalEnd skips brackets inside strings of either quote', () => {
  assert.equal(literalEnd('{"d":"}"} tail', 0), 9);
  assert.equal(literalEnd(`['a]', "b[" ] x`, 0), 13);
  assert.equal(literalEnd('{"open": [', 0), -1);
});

test('parseLooseJson accepts the JavaScript escapes pages use', () => {
  assert.deepEqual(parseLooseJson('{"h":"\\x3cb>\\x3c/script>"}'), { h: '<b></script>' });
  assert.deepEqual(parseLooseJson(`{"q":"it\\'s"}`), { q: "it's" });
  assert.equal(parseLooseJson('{nope}'), undefined);
});

test('__NEXT_DATA__ with whitespace, attribute order and escaped </script>', () => {
  const html = `<html><script src="a.js"></script>
  <script  type="application/json"
     id='__NEXT_DATA__' crossorigin>
   {"props":{"pageProps":{"t":"<\\/script> and \\u003c/script>"}}}
  </script></html>`;
  assert.equal(nextData(html).props.pageProps.t, '</script> and </script>');
  assert.equal(nextData('<script id="__NEXT_DATA__" type="application/json">{broken</script>'), undefined);
  assert.equal(nextData('<p>none</p>'), undefined);
});

test('JSON scripts by id or predicate; comment-wrapped bodies; non-JSON types ignored', () => {
  const html = `<script type="application/json" data-x="1"><!--{"a":1}--></script>
<script type="text/javascript">{"not":"json block"}</script>
<script type="application/ld+json">{"@type":"Thing"}</script>
<script type="application/json" id="st">{"b":2}</script>`;
  assert.deepEqual(jsonScripts(html), [{ a: 1 }, { '@type': 'Thing' }, { b: 2 }]);
  assert.deepEqual(jsonScript(html, 'st'), { b: 2 });
  assert.deepEqual(jsonScripts(html, (s) => s.attrs['data-x'] === '1'), [{ a: 1 }]);
  assert.equal(scripts('<script>unclosed').at(-1)?.body, 'unclosed');
});

test('assigned globals: var, window.x, window["x"], self.x, JSON.parse(...); == is not an assignment', () => {
  const data = { contents: { items: [1, 2] }, s: '};</script>' };
  const lit = JSON.stringify(data).replace(/</g, '\\x3c');
  assert.deepEqual(assignedJson(`<script>var ytInitialData = ${lit};</script>`, 'ytInitialData'), data);
  assert.deepEqual(assignedJson(`<script>window["ytInitialData"]=${lit};</script>`, 'ytInitialData'), data);
  assert.deepEqual(assignedJson(`<script>window.ytInitialData =\n ${lit}</script>`, 'ytInitialData'), data);
  assert.deepEqual(assignedJson(`<script>if (ytInitialData == null) {} self.ytInitialData = ${lit};</script>`, 'ytInitialData'), data);
  assert.deepEqual(assignedJson(`<script>var s = JSON.parse('{"a":"it\\'s \\\\"q\\\\""}');</script>`, 's'), { a: `it's "q"` });
  assert.deepEqual(assignedJson(`<script>window.APP_STATE=[[1,"x"],null];</script>`, 'APP_STATE'), [[1, 'x'], null]);
  assert.equal(assignedJson('<script>var myytInitialData = {"a":1};</script>', 'ytInitialData'), undefined);
  assert.equal(assignedJson('<script>var ytInitialData = {"a":</script>', 'ytInitialData'), undefined);
});

test('Next.js flight chunks join in page order', () => {
  const html = `<script>self.__next_f.push([1,"0:{\\"a\\":"])</script><script>self.__next_f.push([0])</script><script>self.__next_f.push([1,"1}\\n"])</script>`;
  assert.equal(nextFlight(html), '0:{"a":1}\n');
  assert.equal(nextFlight('<p></p>'), '');
});

test('Apollo state: refs resolve, cycles stop, dangling refs are null', () => {
  const cache = {
    ROOT_QUERY: { __typename: 'Query', business: { __ref: 'Business:1' } },
    'Business:1': { __typename: 'Business', name: 'Cafe', reviews: [{ __ref: 'Review:1' }, { __ref: 'Review:9' }] },
    'Review:1': { __typename: 'Review', text: 'good', business: { __ref: 'Business:1' } },
  };
  const html = `<script>window.__APOLLO_STATE__ = ${JSON.stringify(cache)};</script>`;
  const st = apolloState(html)!;
  const root = resolveRefs(st, st.ROOT_QUERY);
  assert.equal(root.business.name, 'Cafe');
  assert.equal(root.business.reviews[0].text, 'good');
  assert.deepEqual(root.business.reviews[0].business, { __ref: 'Business:1' });
  assert.equal(root.business.reviews[1], null);
  assert.deepEqual(apolloObjects(st, 'Review').map((r) => r.text), ['good']);
  assert.equal(apolloState('<p></p>'), undefined);
});

test('findValues collects matches at any depth, not inside a match, cycles stop', () => {
  const isReview = (v: unknown): v is { id: number } => !!v && typeof v === 'object' && 'rating' in v;
  const inner = { id: 2, rating: 4, replies: [{ id: 3, rating: 1 }] };
  const root: any = { a: [{ id: 1, rating: 5 }], b: { c: { d: inner } } };
  root.self = root;
  assert.deepEqual(findValues(root, isReview).map((r) => r.id), [1, 2]);
  assert.deepEqual(findValues('x', isReview), []);
});
