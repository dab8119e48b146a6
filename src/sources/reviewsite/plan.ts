/**
 * The profile page of a domain on Trustpilot: `https://www.trustpilot.com/review/<domain>` (the
 * site redirects a bare domain to the name it files the company under, e.g. `www.` added).
 *
 * @example profileStep('kafe.gr').url // 'https://www.trustpilot.com/review/kafe.gr'
 */
import type { Step } from '../_kit/adapter.ts';

export const PROFILE_HOST = 'https://www.trustpilot.com';

export function profileStep(domain: string): Step {
  return { kind: 'reviewsite-profile', url: `${PROFILE_HOST}/review/${encodeURIComponent(domain.toLowerCase())}`, expect: 'html' };
}
