/**
 * Social profile links: one field per network, the first profile link the site shows. Share and
 * intent links (`/sharer`, `/intent/`, `/share`) are the visitor's, not the business's: skipped.
 */
export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'linkedin', 'twitter', 'youtube', 'tiktok', 'pinterest'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

const HOSTS: [RegExp, SocialNetwork][] = [
  [/(^|\.)(facebook\.com|fb\.com)$/, 'facebook'], [/(^|\.)instagram\.com$/, 'instagram'], [/(^|\.)linkedin\.com$/, 'linkedin'],
  [/(^|\.)(twitter\.com|x\.com)$/, 'twitter'], [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'], [/(^|\.)tiktok\.com$/, 'tiktok'],
  [/(^|\.)pinterest\.[a-z.]+$/, 'pinterest'],
];
const NOT_PROFILE = /\/(sharer|share|intent|dialog|plugins|tr\b|embed|watch|hashtag|search|login|home\.php|pin\/create)|[?&](u|url)=/i;

/** The network of a profile URL, or null (not a social site, or not a profile). */
export function socialNetwork(href: string): SocialNetwork | null {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const host = u.hostname.toLowerCase();
  const hit = HOSTS.find(([re]) => re.test(host));
  if (!hit || u.pathname.replace(/\/+$/, '') === '' || NOT_PROFILE.test(u.pathname + u.search)) return null;
  return hit[1];
}
