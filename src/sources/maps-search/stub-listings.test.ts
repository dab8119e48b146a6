/**
 * Stub listings (issue 34, item 4) on every kind of search step: an area's view and a phrase's page
 * report the listings they keep that are short of a listing's shape (no place id), so the runner asks
 * the page again from another identity (src/engine/steps.ts); whole answers report none. Over HTTP
 * with the re-ask: test/maps-stubs.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapter } from './adapter.ts';
import { populationReady } from './density.ts';
import { resolveArea } from '../../lookups/geo/area/resolve.ts';
import type { Step } from '../_kit/adapter.ts';
import { mapSite } from '../../../test/support/map-site.ts';

const AREA = '-115.3,36.0,-115.1,36.2';
const site = mapSite({ area: resolveArea(AREA), places: 400, seed: 5 });
await populationReady();

/** The site's answer, with the place id of its first listing taken out when `stub`. */
function answer(step: Step, stub: boolean): string {
  const body = site.serve(step.url).body;
  if (!stub) return body;
  const id = /"(ChIJsimulated\d+)"/.exec(body)?.[1];
  assert.ok(id, 'the answer lists a place');
  return body.replaceAll(`"${id}"`, 'null');
}

for (const [kind, params] of [['area', { area: AREA }], ['search', { limit: 40 }]] as const) {
  test(`${kind} step: reports the stub listings it keeps, and none for a whole answer`, () => {
    const ctx = { query: 'dentist', params };
    const [step] = adapter.plan(ctx);
    assert.equal(step!.kind, kind);
    const whole = adapter.parse(step!, { status: 200, url: step!.url, headers: {}, body: answer(step!, false) }, ctx);
    assert.ok(whole.records.length > 0);
    assert.equal(whole.stubs, undefined);
    const thin = adapter.parse(step!, { status: 200, url: step!.url, headers: {}, body: answer(step!, true) }, ctx);
    assert.equal(thin.stubs?.length, 1, JSON.stringify(thin.stubs));
    assert.match(thin.stubs![0]!.why, /^no place_id$/);
    assert.equal(thin.records.length, whole.records.length, 'the page is read all the same');
  });
}
