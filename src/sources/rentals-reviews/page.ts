/**
 * What `/rentals-reviews` reads from a listing page: the site's public API key (`"api_config":
 * {"key": ...}` in the page's bootstrap data, or the `X-Airbnb-API-Key` its scripts send) and the
 * persisted-query hash of `StaysPdpReviewsQuery` when the page names it (a preloaded
 * `/api/v3/StaysPdpReviewsQuery/<hash>` URL, or the operation declared with its `operationId` /
 * `sha256Hash`). Embedded JSON is often HTML-escaped, so `&quot;` is read as `"` first.
 *
 * @example readListingPage('<script>{"api_config":{"key":"abc123abc123abc123ab"}}</script>').apiKey // 'abc123abc123abc123ab'
 */
export interface ListingPage {
  apiKey: string | null;
  hash: string | null;
  /** The page carries the site's app state at all (not a bare error or block page). */
  isAppPage: boolean;
}

const HEX64 = '([0-9a-f]{64})';

function hashOf(text: string): string | null {
  const direct = new RegExp(`StaysPdpReviewsQuery/${HEX64}`).exec(text);
  if (direct) return direct[1];
  for (let i = text.indexOf('StaysPdpReviewsQuery'); i >= 0; i = text.indexOf('StaysPdpReviewsQuery', i + 1)) {
    const after = new RegExp(`^[\\s\\S]{0,400}?(?:sha256Hash|operationId)["']?\\s*:\\s*["']${HEX64}["']`).exec(text.slice(i, i + 600));
    if (after) return after[1];
    const before = new RegExp(`(?:sha256Hash|operationId)["']?\\s*:\\s*["']${HEX64}["'][^{}]{0,200}$`).exec(text.slice(Math.max(0, i - 300), i));
    if (before) return before[1];
  }
  return null;
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
    hash: hashOf(text),
    isAppPage: /data-deferred-state|niobeClientData|niobeMinimalClientData|data-injector-instances|"api_config"/.test(text),
  };
}
