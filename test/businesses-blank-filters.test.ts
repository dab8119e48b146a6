/**
 * POST /businesses with blank filter values (issue 39): an empty string, whitespace only, a byte-order
 * mark or a zero-width space in any filter is a 422 naming the field, or a filter ignored as
 * documented (docs/businesses.md "Blank values"); never a 500, on both stores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';
import { bothStores } from './support/stores.ts';

const BLANKS = ['', ' ', '\ufeff', '\u200b', '\t\n', ' \ufeff '];
const LISTS = ['os_ids', 'states', 'cities', 'counties', 'postal_codes', 'types', 'ignore_types', 'attributes'];
const TEXTS = ['name', 'domain', 'phone', 'rating', 'reviews', 'located_os_id', 'country_code'];

for (const [name, skip, open] of bothStores()) {
  test(`[${name}] every filter with blank values: a 422 naming it or ignored, never a 500`, { skip, timeout: 120_000 }, async () => {
    const db = open();
    const h = await startHarness({ backendEnv: db.env });
    try {
      // A business to find, so that an ignored filter is seen to change nothing.
      assert.equal((await h.json('/maps/search?query=keys=a1,b2&async=false')).status, 200);
      const all = async () => (await post({ include_total: true })).body.total;
      const post = (body: unknown) =>
        h.json('/businesses', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      for (let i = 0; i < 100 && (await all()) !== 2; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(await all(), 2);

      const statuses = new Map<number, number>();
      const check = async (field: string, value: unknown, broad?: boolean, want?: number) => {
        const r = await post({ filters: { [field]: value, ...(broad ? { broad_match: true } : {}) }, include_total: true });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        const what = `${field}=${JSON.stringify(value)}${broad ? ' broad' : ''}: ${r.status} ${JSON.stringify(r.body)}`;
        assert.ok(r.status === 200 || r.status === 422, what);
        if (want) assert.equal(r.status, want, what);
        if (r.status === 422) assert.match(String(r.body.errorMessage), new RegExp(`filters\\.${field}|${field}`), what);
        // An ignored blank filter changes nothing: the search is the unfiltered one.
        if (r.status === 200) assert.equal(r.body.total, 2, what);
      };
      for (const field of LISTS) {
        for (const b of BLANKS) {
          // A blank item of a list is refused (docs/businesses.md "Blank values").
          await check(field, [b], false, 422);
          await check(field, ['a1', b], false, 422);
          if (field === 'types' || field === 'ignore_types' || field === 'attributes') await check(field, [b], true, 422);
        }
        await check(field, [], false, 200);
      }
      // Values that are not blank but reduce to no key (punctuation only) match nothing, never everything.
      for (const field of ['states', 'cities', 'counties', 'postal_codes', 'types']) {
        const r = await post({ filters: { [field]: ['-', '!'] }, include_total: true });
        assert.equal(r.status, 200, `${field}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.total, 0, field);
      }
      // A blank text filter is an unset one; a blank country code fails its pattern.
      for (const field of TEXTS) for (const b of BLANKS) await check(field, b, false, field === 'country_code' ? 422 : 200);
      assert.equal(statuses.get(500), undefined);
    } finally {
      await h.close();
      await db.drop();
    }
  });
}
