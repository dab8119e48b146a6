/**
 * `/network-posts` adapter (unit `post`): company page URLs or ids → the company's posts, from the
 * logged-out company page, or from the signed-in feed when the operator gives session cookies.
 *
 * @example
 *   const [step] = adapter.plan({ query: 'https://www.linkedin.com/company/microsoft/', params: { limit: 10 } });
 *   const { records } = adapter.parse(step, response, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { planWith } from './plan.ts';
import { classifyCompany } from './query.ts';
import type { NetworkParams, NetworkPost } from './record.ts';
import { networkSettings, type NetworkSettings } from './settings.ts';

/** The adapter with these operator settings (tests pass their own). */
export function makeAdapter(settings: NetworkSettings): WebAdapter<NetworkParams, NetworkPost> {
  return {
    kind: 'web',
    endpoint: '/network-posts',
    checkQuery: (q) => {
      const c = classifyCompany(q);
      return typeof c === 'string' ? c : undefined;
    },
    plan: planWith(settings),
    parse,
  };
}

export const adapter = makeAdapter(networkSettings(process.env));
