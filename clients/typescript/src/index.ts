export * from './client.ts';
export type { paths, components } from './schema.ts';
