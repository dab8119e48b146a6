/**
 * `/videosite-videos` (YouTube): videos or shorts of channels, newest first.
 *
 * @example
 *   const { adapter } = await import('./adapter.ts');
 *   adapter.plan({ query: '@creativecommons', params: { shorts: false } })[0].kind // 'resolve'
 */
export { adapter } from './adapter.ts';
export { parseCapture } from './capture.ts';
