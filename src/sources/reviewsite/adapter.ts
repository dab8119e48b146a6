/**
 * The profile lookup behind the `reviewsite_service` enrichment: one page per place, by the
 * registrable domain of its website, through the executor. A domain the site does not know (404,
 * or a page without a company) gives null fields; other failures too, with nothing invented.
 *
 * @example await reviewsiteProfile('https://www.bhphotovideo.com/', (s) => executor.run(s))
 */
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { registrableDomain } from '../places-by-domain/domain.ts';
import { profileStep } from './plan.ts';
import { businessUnitOf, profileOf } from './parse.ts';
import { NO_PROFILE, type ReviewsiteProfile } from './record.ts';

export async function reviewsiteProfile(site: unknown, fetch: (s: Step) => Promise<FetchedResponse>): Promise<ReviewsiteProfile> {
  const domain = typeof site === 'string' ? registrableDomain(site) : null;
  if (!domain) return NO_PROFILE;
  let res: FetchedResponse;
  try {
    res = await fetch(profileStep(domain));
  } catch {
    return NO_PROFILE;
  }
  if (res.status !== 200) return NO_PROFILE;
  const unit = businessUnitOf(res.body);
  return unit ? profileOf(unit) : NO_PROFILE;
}
