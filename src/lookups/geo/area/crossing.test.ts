/**
 * The sweep-line crossing check (crossing.ts) against every pair of edges on random small
 * polygons, on the shapes that broke the banded check (a comb), and on touching and spike cases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstCrossing } from './crossing.ts';
import { segmentsMeet, type Ring } from './shape.ts';
import { comb } from '../../../../test/support/comb.ts';

/** Every pair: the answer the sweep must give (crossing or not). */
function anyPairMeets(poly: Ring[]): boolean {
  const segs: Array<[number, number, number, number, number, number, number]> = [];
  poly.forEach((ring, r) => { for (let i = 0; i + 1 < ring.length; i++) segs.push([...ring[i]!, ...ring[i + 1]!, r, i, ring.length - 2] as never); });
  for (let a = 0; a < segs.length; a++) for (let b = a + 1; b < segs.length; b++) {
    const [ax, ay, bx, by, ra, ia, last] = segs[a]!, [cx, cy, dx, dy, rb, ib] = segs[b]!;
    if (ra === rb && (Math.abs(ia - ib) === 1 || (Math.min(ia, ib) === 0 && Math.max(ia, ib) === last))) {
      // Neighbours: a crossing only when they turn back along one line.
      const [p, q] = ia < ib && !(ia === 0 && ib === last) ? [segs[a]!, segs[b]!] : [segs[b]!, segs[a]!];
      const cross = (p[2] - p[0]) * (q[3] - q[1]) - (p[3] - p[1]) * (q[2] - q[0]);
      const dot = (p[2] - p[0]) * (q[2] - q[0]) + (p[3] - p[1]) * (q[3] - q[1]);
      if (cross === 0 && dot < 0) return true;
      continue;
    }
    if (segmentsMeet(ax, ay, bx, by, cx, cy, dx, dy)) return true;
  }
  return false;
}

function randomRing(n: number, grid: number, rand: () => number): Ring {
  const ring: Ring = [];
  for (let i = 0; i < n; i++) {
    const p: [number, number] = [Math.floor(rand() * grid), Math.floor(rand() * grid)];
    const prev = ring[ring.length - 1];
    if (prev && prev[0] === p[0] && prev[1] === p[1]) continue;
    ring.push(p);
  }
  if (ring.length < 3 || (ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1])) return randomRing(n, grid, rand);
  ring.push(ring[0]!);
  return ring;
}

test('the sweep agrees with every pair on random polygons (crossing, touching, collinear)', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let crossing = 0, simple = 0;
  for (let k = 0; k < 3000; k++) {
    const rings = [randomRing(3 + Math.floor(rand() * 6), 4 + Math.floor(rand() * 6), rand)];
    if (rand() < 0.3) rings.push(randomRing(3 + Math.floor(rand() * 3), 8, rand));
    const want = anyPairMeets(rings);
    const got = firstCrossing(rings);
    assert.equal(got !== null, want, `${JSON.stringify(rings)}: sweep says ${got}`);
    if (want) crossing++; else simple++;
  }
  assert.ok(crossing > 100 && simple > 100, `both kinds drawn: ${crossing} crossing, ${simple} simple`);
});

test('a comb is simple; a comb with one tooth bent over its neighbour crosses', () => {
  assert.equal(firstCrossing([comb(2000)]), null);
  const bent = comb(2000);
  bent[4 * 1000 + 1] = [10.02, 1];  // tooth 1000's top goes past the next tooth's edge
  assert.match(firstCrossing([bent]) ?? 'none', /^ring 0: edge \d+ meets edge \d+/);
  const spike: Ring = [[0, 0], [2, 0], [1, 0], [1, 1], [0, 0]];
  assert.match(firstCrossing([spike]) ?? 'none', /meets/);
  const touching: Ring = [[0, 0], [2, 0], [2, 2], [1, 0], [0, 2], [0, 0]];
  assert.match(firstCrossing([touching]) ?? 'none', /meets/, 'a vertex on another edge');
});
