/** A comb: `teeth` thin teeth over a bar, simple (no crossing), every tooth as tall as the shape: the
 *  polygon that made the banded crossing check test every pair of edges (issue 39). */
import type { Ring } from '../../src/lookups/geo/area/shape.ts';

export function comb(teeth: number): Ring {
  const ring: Ring = [];
  for (let i = 0; i < teeth; i++) { const x = i * 0.01; ring.push([x, 0], [x, 1], [x + 0.005, 1], [x + 0.005, 0.01]); }
  ring.push([teeth * 0.01, 0.01], [teeth * 0.01, -0.1], [0, -0.1], [0, 0]);
  return ring;
}
