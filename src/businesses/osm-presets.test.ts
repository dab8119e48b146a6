/**
 * Preset matching: the rules on a small schema made here (every rule by itself), then the packaged
 * iD tagging schema on tags real OSM objects carry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPresetIndex, presetFor, presetIndex, type RawPreset } from './osm-presets.ts';
import { businessFromOsm } from './osm-business.ts';

const schema: Record<string, RawPreset> = {
  shop: { tags: { shop: '*' } },
  'amenity/place_of_worship': { tags: { amenity: 'place_of_worship' } },
  'amenity/place_of_worship/christian': { tags: { amenity: 'place_of_worship', religion: 'christian' } },
  'amenity/vending_machine': { tags: { amenity: 'vending_machine', vending: '*' } },
  'amenity/vending_machine/coffee': { tags: { amenity: 'vending_machine', vending: 'coffee' }, matchScore: 0.9 },
  // Unsearchable first: it loses the tie all the same.
  'amenity/dentist/old': { tags: { amenity: 'dentist' }, searchable: false },
  'amenity/dentist': { tags: { amenity: 'dentist' }, addTags: { amenity: 'dentist', healthcare: 'dentist' } },
  'shop/ice_cream': { tags: { shop: 'ice_cream' }, name: '{amenity/ice_cream}', searchable: false, matchScore: 0.5 },
  'amenity/ice_cream': { tags: { amenity: 'ice_cream' } },
  'office/bail_bond_agent-US': { tags: { office: 'bail_bond_agent' }, locationSet: { include: ['us'] } },
};
const names: Record<string, { name?: string }> = {
  shop: { name: 'Shop' }, 'amenity/place_of_worship': { name: 'Place of Worship' }, 'amenity/place_of_worship/christian': { name: 'Christian Church' },
  'amenity/vending_machine': { name: 'Vending Machine' }, 'amenity/vending_machine/coffee': { name: 'Coffee Vending Machine' },
  'amenity/dentist': { name: 'Dentist' }, 'amenity/dentist/old': { name: 'Old Dentist' }, 'shop/ice_cream': {},
  'amenity/ice_cream': { name: 'Ice Cream Shop' }, 'office/bail_bond_agent-US': { name: 'Bail Bond Agent' },
};
const ix = buildPresetIndex(schema, names);
const nameOf = (k: string, v: string, tags: Record<string, string> = {}) => presetFor(ix, k, v, { [k]: v, ...tags })?.name ?? null;

test('the preset with more matching tags wins, and names its general preset beside it', () => {
  assert.deepEqual(presetFor(ix, 'amenity', 'place_of_worship', { religion: 'christian' }),
    { name: 'Christian Church', score: 2, base: 'Place of Worship', implies: [['amenity', 'place_of_worship'], ['religion', 'christian']] });
  const plain = presetFor(ix, 'amenity', 'place_of_worship', { religion: 'jedi' })!;
  assert.deepEqual([plain.name, plain.base, plain.score], ['Place of Worship', null, 1]);
});

test('a wildcard matches any value for half the weight; an exact value beats it even with a lower matchScore', () => {
  assert.equal(presetFor(ix, 'amenity', 'vending_machine', { vending: 'parking_tickets' })?.score, 1.5);
  assert.equal(nameOf('amenity', 'vending_machine', { vending: 'parking_tickets' }), 'Vending Machine');
  assert.equal(nameOf('amenity', 'vending_machine', { vending: 'coffee' }), 'Coffee Vending Machine');
  assert.equal(nameOf('amenity', 'vending_machine'), null, 'the wildcard tag must be there');
});

test('addTags on the object add to the score; searchable: false loses ties; names by reference; regional and all-wildcard presets name nothing', () => {
  assert.equal(presetFor(ix, 'amenity', 'dentist', { healthcare: 'dentist' })?.score, 2);
  assert.equal(nameOf('amenity', 'dentist'), 'Dentist');
  assert.deepEqual(presetFor(ix, 'amenity', 'dentist', {})?.implies, [['amenity', 'dentist'], ['healthcare', 'dentist']]);
  assert.equal(nameOf('shop', 'ice_cream'), 'Ice Cream Shop');
  assert.equal(nameOf('office', 'bail_bond_agent'), null);
  assert.equal(nameOf('shop', 'doityourself'), null, '`shop=*` ("Shop") is no name for a value');
});

test('the packaged iD tagging schema: real tags get the editor\'s names', () => {
  const real = presetIndex();
  assert.equal(real, presetIndex(), 'built once');
  const at = (tags: Record<string, string>, k = Object.keys(tags)[0]) => presetFor(real, k, tags[k], tags);
  assert.equal(at({ shop: 'doityourself' })?.name, 'DIY Store');
  assert.deepEqual([at({ amenity: 'place_of_worship', religion: 'christian' })?.name, at({ amenity: 'place_of_worship', religion: 'christian' })?.base],
    ['Christian Church', 'Place of Worship']);
  assert.equal(at({ amenity: 'place_of_worship', religion: 'muslim' })?.name, 'Muslim Mosque');
  assert.equal(at({ amenity: 'fast_food', cuisine: 'burger' })?.name, 'Burger Fast Food');
  assert.equal(at({ amenity: 'fuel' })?.name, 'Gas Station');
  assert.equal(at({ shop: 'ice_cream' })?.name, 'Ice Cream Shop', 'unsearchable, named by reference');
  assert.equal(at({ amenity: 'school' })?.name, 'School Grounds');
  assert.equal(at({ shop: 'no_such_shop_value' }), null);
});

test('business types: preset names most specific first, implied tags add nothing, unnamed values in words, then cuisines', () => {
  const types = (tags: Record<string, string>) => businessFromOsm('node', 1, { name: 'x', ...tags }, 0, 0)?.types;
  assert.deepEqual(types({ amenity: 'restaurant', cuisine: 'italian' }), ['Italian Restaurant', 'Restaurant', 'Italian cuisine']);
  assert.deepEqual(types({ amenity: 'pharmacy', healthcare: 'pharmacy' }), ['Pharmacy Counter']);
  assert.deepEqual(types({ amenity: 'dentist', healthcare: 'dentist' }), ['Dentist']);
  assert.deepEqual(types({ shop: 'doityourself;garden_centre' }), ['DIY Store', 'Garden Center']);
  assert.deepEqual(types({ shop: 'boutique_of_curiosities', amenity: 'place_of_worship', religion: 'christian' }),
    ['Christian Church', 'Place of Worship', 'Boutique of curiosities']);
  assert.deepEqual(types({ craft: 'hat_maker' }), ['Hat maker'], 'no preset: the value in words');
  assert.equal(businessFromOsm('node', 1, { name: 'x', amenity: 'fast_food', cuisine: 'burger' }, 0, 0)?.category, 'Burger Fast Food');
  assert.equal(types({ amenity: 'parking' }), undefined, 'still not a business');
});
