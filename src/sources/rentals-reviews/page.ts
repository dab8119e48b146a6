/**
 * What `/rentals-reviews` reads from a listing page: the site's public API key (`"api_config":
 * {"key": ...}` in the page's bootstrap data, or the `X-Airbnb-API-Key` its scripts send) and the
 * persisted-query hash of `StaysPdpReviewsQuery` when the page names it (a preloaded
 * `/api/v3/StaysPdpReviewsQuery/<hash>` URL, or the operation declared with its `operationId` /
 * `sha256Hash`). Embedded JSON is often HTML-escaped, so `&quot;` is read as `"` first.
 *
 * @example readListingPage('<script>{"api_config":{"key":"abc123abc123abc123ab"}}</script>').apiKey // 'abc123abc123abc123ab'
 */
import { persistedHashOf } from '../_kit/graphql.ts';

export interface ListingPage {
  apiKey: string | null;
  hash: string | null;
  /** The page carries the site's app state at all (not a bare error or block page). */
  isAppPage: boolean;
}

function apiKeyOf(text: string): string | null {
  const m = /"api_config"\s*:\s*\{\s*"key"\s*:\s*"([A-Za-z0-9]{16,64})"/.exec(text)
    ?? /x-airbnb-api-key["']?\s*[:,]\s*["']([A-Za-z0-9]{16,64})["']/i.exec(text)
    ?? /<meta\b[^>]*name=["']airbnb-api-key["'][^>]*content=["']([A-Za-z0-9]{16,64})["']/i.exec(text)
    ?? /"(?:apiKey|api_key|baseApiKey)"\s*:\s*"([A-Za-z0-9]{16,64})"/.exec(text);
  return m?.[1] ?? null;
}

export function readListingPage(html: string): ListingPage {
  const text = html.includes('&quot;') ? html.replace(/&quot;/g, '"') : html;
  return {
    apiKey: apiKeyOf(text),
    hash: persistedHashOf(text, 'StaysPdpReviewsQuery'),
    isAppPage: /data-deferred-state|niobeClientData|niobeMinimalClientData|data-injector-instances|"api_config"/.test(text),
  };
}
