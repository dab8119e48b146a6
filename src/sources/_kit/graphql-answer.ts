/**
 * Reading GraphQL answers as sites serve them: one answer `{"data": ..., "errors": [...]}`, or a
 * batch (an array of answers, one per operation sent). Errors become typed `SourceError`s, so an
 * answer with errors is never mistaken for "nothing found".
 *
 * @example
 *   const [answer] = graphqlAnswers(JSON.parse(body));
 *   const data = graphqlData(answer, 'GetBusinessReviewFeed');
 */
import { SourceError, type SourceErrorType } from './errors.ts';

export interface GraphqlError {
  message: string;
  /** `extensions.code` (Apollo) or `extensions.classification` (graphql-java), upper-cased. */
  code: string | null;
}

export interface GraphqlAnswer {
  data: unknown;
  errors: GraphqlError[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function errorOf(e: unknown): GraphqlError {
  if (!isObj(e)) return { message: String(e), code: null };
  const ext = isObj(e.extensions) ? e.extensions : {};
  const code = ext.code ?? ext.classification ?? ext.errorType ?? null;
  return { message: typeof e.message === 'string' ? e.message : '', code: typeof code === 'string' ? code.toUpperCase() : null };
}

/**
 * Every answer in a GraphQL response body (already JSON-parsed): one for a plain answer, one per
 * operation for a batch. Anything that is not an answer (no `data` and no `errors`) is skipped.
 * @example graphqlAnswers([{ data: { a: 1 } }, { errors: [{ message: 'x' }] }]).length // 2
 */
export function graphqlAnswers(json: unknown): GraphqlAnswer[] {
  const list = Array.isArray(json) ? json : [json];
  const out: GraphqlAnswer[] = [];
  for (const a of list) {
    if (!isObj(a) || (!('data' in a) && !('errors' in a))) continue;
    out.push({ data: a.data ?? null, errors: Array.isArray(a.errors) ? a.errors.map(errorOf) : [] });
  }
  return out;
}

/** Which source error an answer's errors amount to. */
export function errorTypeOf(errors: GraphqlError[]): SourceErrorType {
  const text = errors.map((e) => `${e.code ?? ''} ${e.message}`).join(' ');
  if (/RATE[_ ]?LIMIT|TOO[_ ]MANY[_ ]REQUESTS|THROTTL/i.test(text)) return 'rate_limited';
  if (/NOT_?FOUND|DOES NOT EXIST|NO SUCH/i.test(text) && !/PERSISTED/i.test(text)) return 'not_found';
  if (/FORBIDDEN|UNAUTHENTICATED|UNAUTHORI[SZ]ED/i.test(text)) return 'blocked';
  return 'layout_changed';
}

/**
 * The `data` of one answer; throws a typed `SourceError` when the answer carries errors and no
 * data (partial data with errors is returned: the fields that failed are null in it).
 * @example graphqlData({ data: { x: 1 }, errors: [] }, 'Op') // { x: 1 }
 */
export function graphqlData(answer: GraphqlAnswer | undefined, operation: string): Record<string, unknown> {
  if (!answer) throw new SourceError('layout_changed', `${operation}: the body holds no GraphQL answer`);
  if (isObj(answer.data)) return answer.data;
  if (answer.errors.length) {
    const first = answer.errors[0];
    throw new SourceError(errorTypeOf(answer.errors), `${operation}: ${first.code ? `${first.code}: ` : ''}${first.message}`.slice(0, 300));
  }
  throw new SourceError('layout_changed', `${operation}: the answer has no data`);
}
