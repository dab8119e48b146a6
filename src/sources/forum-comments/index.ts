/**
 * `/forum-comments` (Reddit): comments of posts, whole threads with every "more" stub expanded.
 *
 * @example
 *   const a = await (await import('./adapter.ts')).adapter;
 *   a.plan({ query: 'https://redd.it/3hahrw', params: {} })[0].url
 *   // 'https://www.reddit.com/comments/3hahrw.json?sort=confidence&limit=500&raw_json=1'
 */
export { adapter } from './adapter.ts';
export { parseCapture } from './capture.ts';
