import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLdType, jsonLd, jsonLdOfType, ldNumber, ldText } from './jsonld.ts';

const PAGE = `<script type="application/ld+json">[{"@type":"BreadcrumbList"},{"@context":"https://schema.org","@graph":[{"@type":["Restaurant","LocalBusiness"],"name":" Cafe ","aggregateRating":{"ratingValue":"4.5","reviewCount":"1,204"}},{"@type":"schema:Event","name":"Gig"}]}]</script>
<script type="application/ld+json">{ not json</script>
<script type="application/ld+json">{"@type":"https://schema.org/Event","name":{"@value":"Fest"}}</script>`;

test('every JSON-LD object: arrays and @graph flattened, broken blocks skipped', () => {
  assert.deepEqual(jsonLd(PAGE).map((o) => o['@type']), ['BreadcrumbList', ['Restaurant', 'LocalBusiness'], 'schema:Event', 'https://schema.org/Event']);
  assert.deepEqual(jsonLd('<p>none</p>'), []);
});

test('typed lookup accepts array and prefixed @type forms', () => {
  assert.deepEqual(jsonLdOfType(PAGE, 'Event').map((o) => ldText(o.name)), ['Gig', 'Fest']);
  const [biz] = jsonLdOfType(PAGE, 'LocalBusiness');
  assert.equal(ldText(biz.name), 'Cafe');
  assert.equal(ldNumber(biz.aggregateRating.ratingValue), 4.5);
  assert.equal(ldNumber(biz.aggregateRating.reviewCount), 1204);
  assert.equal(isLdType({ '@type': 'Events' }, 'Event'), false);
  assert.equal(ldNumber('n/a'), null);
  assert.equal(ldText('  '), null);
});
