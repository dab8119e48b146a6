/**
 * The dashboard map's background (web/src/basemap.ts) on the data it serves (world-atlas 1:110m and
 * 1:50m, us-atlas states): no segment of a drawn path spans more than 180° of longitude (issue 38:
 * rings crossing the antimeridian drew a horizontal line across the oceans), ring closures included,
 * and the land past the antimeridian is still drawn where it lies (Chukotka, Fiji's east islands).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import type { Topology, GeometryObject } from 'topojson-specification';
import type { Geometry } from 'geojson';
import { linesOf, mercY, unwrap, type Line } from '../web/src/basemap.ts';

const require = createRequire(import.meta.url);
const geometries = (t: Topology, name: string): Geometry[] => {
  const fc = feature(t, t.objects[name]!) as { features?: { geometry: Geometry }[]; geometry?: Geometry };
  return fc.features ? fc.features.map((f) => f.geometry) : [fc.geometry!];
};

/** The widest step in longitude between points drawn one after the other (a ring's closing one too). */
function widestStep(l: Line, closed: boolean): number {
  let w = 0;
  const n = l.xy.length / 2;
  for (let i = 1; i < n + (closed ? 1 : 0); i++) w = Math.max(w, Math.abs(l.xy[2 * (i % n)]! - l.xy[2 * (i - 1)]!));
  return w;
}

function inside(lines: Line[], x: number, y: number): boolean {
  let c = false;
  for (const { xy } of lines) {
    for (let i = 0, j = xy.length - 2; i < xy.length; j = i, i += 2) {
      const yi = xy[i + 1]!, yj = xy[j + 1]!;
      if ((yi > y) !== (yj > y) && x < ((xy[j]! - xy[i]!) * (y - yi)) / (yj - yi) + xy[i]!) c = !c;
    }
  }
  return c;
}

for (const file of ['world-atlas/countries-110m.json', 'world-atlas/countries-50m.json']) {
  test(`${file}: land, countries and borders drawn without a segment over 180° of longitude; Chukotka and Fiji on their side`, () => {
    const t = require(file) as Topology;
    const raw = geometries(t, 'land');
    const rawSteps = raw.flatMap((g) => (g.type === 'MultiPolygon' ? g.coordinates.flat() : g.type === 'Polygon' ? g.coordinates : []))
      .flatMap((r) => r.slice(1).map((p, i) => Math.abs(p[0]! - r[i]![0]!)));
    assert.ok(Math.max(...rawSteps) > 180, 'the data itself crosses the antimeridian (what is tested)');
    const land = raw.flatMap(linesOf);
    const countries = geometries(t, 'countries').flatMap(linesOf);
    const borders = linesOf(mesh(t, t.objects.countries as GeometryObject, (a, b) => a !== b));
    for (const l of [...land, ...countries]) assert.ok(widestStep(l, true) <= 180, `a ring steps ${widestStep(l, true)}°`);
    for (const l of borders) assert.ok(widestStep(l, false) <= 180);
    // East of the antimeridian, drawn where it is: Chukotka (Russia) and Fiji's Taveuni side.
    assert.ok(inside(land, -173, mercY(65.5)), 'Chukotka east of 180° is land');
    assert.ok(inside(land, 175, mercY(65)), 'and Chukotka west of it');
    assert.ok(!inside(land, -150, mercY(20)), 'the Pacific is sea');
    assert.ok(!inside(land, 0, mercY(0)), 'the Gulf of Guinea is sea');
  });
}

test('us-atlas state lines: no segment over 180° of longitude', () => {
  const t = require('us-atlas/states-10m.json') as Topology;
  for (const l of linesOf(mesh(t, t.objects.states as GeometryObject, (a, b) => a !== b))) assert.ok(widestStep(l, false) <= 180);
});

test('unwrap: a ring across 180° continues past it and is drawn again on the other side; a polar ring closes along the pole', () => {
  const [east, west] = unwrap([[179, 65], [-179, 66], [-179, 64], [179, 65]], true);
  assert.deepEqual(east, [[179, 65], [181, 66], [181, 64], [179, 65]]);
  assert.deepEqual(west, [[-181, 65], [-179, 66], [-179, 64], [-181, 65]]);
  const polar = unwrap([[-180, -80], [0, -70], [179, -80], [-180, -81]], true);
  assert.equal(polar.length, 1);
  const pts = polar[0]!;
  assert.ok(pts.slice(1).every((p, i) => Math.abs(p[0]! - pts[i]![0]!) <= 180));
  assert.deepEqual(pts.at(-1), [-180, -90], 'closed back at the start along the south pole\'s edge');
  assert.deepEqual(unwrap([[10, 10], [20, 20]], false), [[[10, 10], [20, 20]]], 'a line within ±180 is as it was');
});
