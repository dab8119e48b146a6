/**
 * Help texts in plain language: the contract's descriptions are written for the API reference
 * (backticked names, notes on which parameters the interface lists, other spellings accepted); on
 * the dashboard those notes are noise, and `name` becomes a code element instead of backticks.
 */
import { h } from './dom.ts';

const NOISE: [RegExp, string | ((m: string, c: string) => string)][] = [
  [/ \(accepted, not in this endpoint's interface table\)/g, ''],
  [/ ?\(not in the interface table; optional\)/g, ''],
  [/Extension \(not in the interface\): (\w)/g, (_m, c) => c.toUpperCase()],
  [/ ?Also read as [^.]*\./g, ''],
  [/ ?Forces ui=true\./g, ' The request then runs as a task that writes a file (see Tasks and files).'],
  [/ ?Forces async=true\./g, ''],
  [/; raises response time \(async advised\)/g, '; they make a request slower'],
  [/ ?Service id: `[^`]*`\./g, ''],
  [/ ?`[\w-]+` = `[\w-]+`\./g, ''],
];

/** The description without reference-only notes. */
export function plain(text: string): string {
  let t = text;
  for (const [re, by] of NOISE) t = typeof by === 'string' ? t.replace(re, by) : t.replace(re, by);
  return t.trim();
}

/** Plain text as nodes, `code` spans as code elements. */
export function rich(text: string): (Node | string)[] {
  return plain(text).split(/`([^`]*)`/).map((part, i) => (i % 2 ? h('code', null, part) : part)).filter((x) => x !== '');
}

/** A parameter's name for people: "dropDuplicates" → "Drop duplicates". */
export function labelOf(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The parts of an endpoint's description (src/http/openapi.ts writes summary, query items, billing). */
export function endpointInfo(description: string): { summary: string; queries: string; billing: string } {
  const [summary = '', ...rest] = description.split('\n\n');
  const items = rest.find((p) => p.startsWith('Query items: '))?.slice('Query items: '.length) ?? '';
  // "A phrase ..." reads on after "Each query is:" in lower case (but "URLs" stays).
  const queries = /^[A-Z](?![A-Z])/.test(items) ? items.charAt(0).toLowerCase() + items.slice(1) : items;
  const billing = rest.find((p) => p.startsWith('Billed per ')) ?? '';
  return { summary, queries, billing: plain(billing) };
}
