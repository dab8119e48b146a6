/**
 * Parses one saved response: a company page HTML (its `__NEXT_DATA__`), a `__NEXT_DATA__` object,
 * or a bare businessUnit node. For a future `trawl parse /reviewsite-reviews`.
 */
import { businessUnitOf, isBusinessUnit, profileOf } from './parse.ts';
import type { ReviewsiteProfile } from './record.ts';

export function parseCapture(text: string): ReviewsiteProfile[] {
  if (/^\s*</.test(text)) {
    const unit = businessUnitOf(text);
    if (!unit) throw new Error('reviewsite: the page has no company (no __NEXT_DATA__ businessUnit)');
    return [profileOf(unit)];
  }
  const json = JSON.parse(text) as Record<string, any>;
  const unit = json?.props?.pageProps?.businessUnit ?? json?.pageProps?.businessUnit ?? json;
  if (!isBusinessUnit(unit)) throw new Error('reviewsite: expected a company page, its __NEXT_DATA__, or a businessUnit node');
  return [profileOf(unit)];
}
