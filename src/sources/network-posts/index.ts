/**
 * The professional-network posts source (LinkedIn): `/network-posts`. Details, the login wall and
 * the signed-in path: docs/sources-shortvideo-network.md.
 */
export { adapter, makeAdapter } from './adapter.ts';
export { parseCapture } from './capture.ts';
export type { NetworkPost, NetworkParams } from './record.ts';
