/**
 * Reads a Trustpilot company page: its `__NEXT_DATA__` (`props.pageProps.businessUnit`: the
 * company's `identifyingName`, `trustScore`, `numberOfReviews`, `categories[]` with `isPrimary`).
 *
 * @example profileOf(nextData(html)?.props?.pageProps?.businessUnit)?.reviewsite_rating // 4.9
 */
import { nextData } from '../_kit/embedded.ts';
import { PROFILE_HOST } from './plan.ts';
import type { ReviewsiteProfile } from './record.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null);

/** True for the site's businessUnit node. */
export function isBusinessUnit(v: unknown): v is Obj {
  const o = obj(v);
  return !!o && typeof o.identifyingName === 'string' && ('trustScore' in o || 'numberOfReviews' in o);
}

/** The profile fields of a businessUnit node. */
export function profileOf(unit: Obj): ReviewsiteProfile {
  const cats = (Array.isArray(unit.categories) ? unit.categories : []).map(obj).filter((c): c is Obj => !!c && typeof c.name === 'string');
  cats.sort((a, b) => Number(b.isPrimary === true) - Number(a.isPrimary === true));
  return {
    reviewsite_rating: num(unit.trustScore),
    reviewsite_reviews: num(unit.numberOfReviews),
    reviewsite_link: `${PROFILE_HOST}/review/${unit.identifyingName as string}`,
    reviewsite_categories: cats.map((c) => c.name as string),
  };
}

/** The company's businessUnit in a profile page, or null (not a company page: a search or error page). */
export function businessUnitOf(html: string): Obj | null {
  const unit = obj(obj(obj(nextData(html))?.props)?.pageProps)?.businessUnit;
  return isBusinessUnit(unit) ? unit : null;
}
