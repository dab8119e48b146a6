/**
 * Place-details steps. Each names one place and fetches its page; the page's inline state carries
 * the same array as `/maps/preview/place` (parsed by `extractPlaceFromHtml`). URL forms:
 * - place_id:  `https://www.google.com/maps/place/?q=place_id:<id>&hl=<hl>[&gl=<gl>]`
 * - CID:       `https://www.google.com/maps?cid=<cid>&hl=<hl>[&gl=<gl>]`
 * - engine_id: the CID form with the decimal of its second half (the CID is that half)
 * - place URL: the user's URL with hl/gl added when absent (`userUrl`, so the SSRF guard applies)
 */
import type { Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { cidFromEngineId } from './ids.ts';
import type { QueryForm } from './query.ts';

export interface Locale {
  language: string;
  region?: string | null;
}

function localeQs(l: Locale): string {
  return `hl=${encodeURIComponent(l.language)}${l.region ? `&gl=${encodeURIComponent(l.region)}` : ''}`;
}

/**
 * @example
 *   placeStep({ form: 'cid', cid: '16519582940102929223' }, { language: 'en' }).url
 *   // 'https://www.google.com/maps?cid=16519582940102929223&hl=en'
 */
export function placeStep(target: QueryForm, locale: Locale): Step {
  const qs = localeQs(locale);
  switch (target.form) {
    case 'place_id':
      return { kind: 'place', url: `https://www.google.com/maps/place/?q=place_id:${encodeURIComponent(target.id)}&${qs}`, expect: 'html' };
    case 'cid':
      return { kind: 'place', url: `https://www.google.com/maps?cid=${target.cid}&${qs}`, expect: 'html' };
    case 'engine_id': {
      const cid = cidFromEngineId(target.id);
      if (cid) return { kind: 'place', url: `https://www.google.com/maps?cid=${cid}&${qs}`, expect: 'html' };
      return { kind: 'place', url: `https://www.google.com/maps/place/data=!4m2!3m1!1s${target.id}?${qs}`, expect: 'html' };
    }
    case 'place_url': {
      const u = new URL(target.url);
      if (!u.searchParams.has('hl')) u.searchParams.set('hl', locale.language);
      if (locale.region && !u.searchParams.has('gl')) u.searchParams.set('gl', locale.region);
      return { kind: 'place', url: u.toString(), expect: 'html', userUrl: true };
    }
    case 'short_url':
      // The short link redirects to a place or search page; the executor follows it and `parse`
      // reads the final URL (and the page, when it already is the place).
      return { kind: 'resolve', url: target.url, expect: 'html', userUrl: true };
    default:
      throw new SourceError('invalid_query', `not a place query (${target.form})`);
  }
}
