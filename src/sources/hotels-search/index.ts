/**
 * `/hotels-search`: hotels from hotel-search result pages (Google Hotels' `AtySUc` RPC).
 */
export { adapter } from './adapter.ts';
export { parseCapture } from './capture.ts';
