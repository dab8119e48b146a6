/**
 * Stub answers (issue 34, item 4): a site that serves some sessions or exit IPs a thinned answer (a
 * place page with today's hours only, no place id, no popular times) that still parses. The adapter
 * knows what a whole record of a page looks like and reports the records short of it; the runner
 * (src/engine/stubs.ts) asks the step again once from another identity (`Step.another`, through the
 * executor's session pool and signed-in accounts) and serves what stays a stub with a typed reason
 * (`stub`) and the request's `metadata.stubs_served`.
 *
 * @example
 *   // a place page whose hours list one day and which has no place id
 *   { records: [rec], stubs: [{ key: 'Place 3', why: 'hours of 1 day of 7; no place_id' }] }
 */

export interface StubNote {
  /** Which record (a place's name or id): for the reason's text, no URL, no secret. */
  key: string;
  /** What is missing, in a few words. */
  why: string;
}
