/**
 * Reads a task's selection fields (`filters`, `exactMatch`, `ignoreWithoutEmails`, `dropEmailDuplicates`)
 * from a POST /tasks body the schema already accepted, refuses what cannot work (422 naming the field),
 * and returns the parameters with the selection stored under SELECTION (src/engine/selection.ts).
 *
 * @example withSelection(mapsSearch, { exactMatch: true, categories: ['dentist'] }, params) // { ...params, _selection: { exactMatch: { categories: ['dentist'] } } }
 */
import type { DataEndpoint } from '../contract/endpoint.ts';
import { AppError } from './errors.ts';
import { filterProblem, type ResultFilter } from '../engine/result-filters.ts';
import { SELECTION, firstMember, type Selection } from '../engine/selection.ts';

/** The record's declared fields; numbered ones (`email_2`) count as their first member (`email_1`). */
function fieldsOf(decl: DataEndpoint): (name: string) => boolean {
  const props = (decl.record as { properties?: Record<string, unknown> }).properties ?? {};
  return (name) => Object.hasOwn(props, name) || Object.hasOwn(props, firstMember(name));
}

/** The enrichment that adds e-mail addresses to places. */
const CONTACTS = 'contacts_n_leads';

export function withSelection(decl: DataEndpoint, body: Record<string, unknown>, params: Record<string, unknown>): Record<string, unknown> {
  const s: Selection = {};
  const isField = fieldsOf(decl);
  const filters = (Array.isArray(body.filters) ? body.filters : []) as ResultFilter[];
  if (filters.length) {
    const why = filterProblem(filters, isField, decl.unit);
    if (why) throw new AppError(422, why);
    s.filters = filters;
  }
  if (body.exactMatch === true) {
    if (!isField('type') || !isField('subtypes')) throw new AppError(422, `exactMatch compares place categories; ${decl.service} returns ${decl.unit} records`);
    s.exactMatch = { categories: Array.isArray(body.categories) ? (body.categories as string[]) : [] };
  }
  const emails = Array.isArray(params.enrichment) && (params.enrichment as string[]).includes(CONTACTS);
  for (const name of ['ignoreWithoutEmails', 'dropEmailDuplicates'] as const) {
    if (body[name] !== true) continue;
    if (!emails) throw new AppError(422, `${name} needs the contacts enrichment (enrichments: ["${CONTACTS}"]): places get their e-mail addresses from it`);
    s[name] = true;
  }
  return Object.keys(s).length ? { ...params, [SELECTION]: s } : params;
}
