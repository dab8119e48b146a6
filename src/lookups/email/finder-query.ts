/**
 * The `/emails-finder` query, "<full name> <domain>", read apart from the finder itself: checkQuery
 * runs it at submit time on the API's thread, which must not load the finder's probes and lists
 * (the lookups run on the lookup thread, issue 15).
 */
import { splitName, type NameParts } from './names.ts';
import { checkSyntax } from './syntax.ts';

export type FinderQuery = { ok: true; fullName: string; name: NameParts; domain: string } | { ok: false; message: string };

/**
 * Splits "<full name> <domain>" (the domain is the last whitespace-separated token; a URL or
 * 'www.' prefix is tolerated).
 * @example parseFinderQuery('Jane Doe https://www.example.com/') // { ok: true, fullName: 'Jane Doe', domain: 'example.com', ... }
 */
export function parseFinderQuery(query: string): FinderQuery {
  const text = typeof query === 'string' ? query.trim() : '';
  const cut = text.search(/\s+\S+$/);
  if (cut <= 0) return { ok: false, message: `query "${text}" must be "<full name> <domain>", e.g. "Jane Doe example.com"` };
  const fullName = text.slice(0, cut).trim();
  const token = text.slice(cut).trim();
  const host = token
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^[^@/]*@/, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '')
    .replace(/^www\./i, '');
  const syn = checkSyntax(`x@${host}`);
  if (!syn.ok) return { ok: false, message: `query "${text}": "${token}" is not a mail domain (${syn.reason})` };
  const name = splitName(fullName);
  if (!name) return { ok: false, message: `query "${text}": "${fullName}" has no letters to build an address from` };
  return { ok: true, fullName, name, domain: syn.asciiDomain };
}
