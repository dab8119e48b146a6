/**
 * A `/maps/search` adapter over a world the test changes between runs (monitors' tests): every
 * query answers every place of the world; `broken.on` makes the site block us.
 *
 * @example const world = new Map(); const a = worldAdapter(world, { on: false }); world.set('a', { place_id: 'a', name: 'Alpha' });
 */
import type { LocalAdapter } from '../../src/sources/_kit/adapter.ts';
import { SourceError } from '../../src/sources/_kit/errors.ts';

export type WorldRecord = Record<string, unknown>;

export function worldAdapter(world: Map<string, WorldRecord>, broken: { on: boolean }): LocalAdapter {
  return {
    kind: 'local', endpoint: '/maps/search',
    async lookup({ query }) {
      if (broken.on) throw new SourceError('blocked', 'test: the site blocks us today');
      return [...world.values()].map((r) => ({ ...r, query }));
    },
  };
}
