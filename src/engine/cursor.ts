/**
 * `next_page_cursor` (decision 23), generic for every paged source: the runner writes the resume
 * point of a query — the steps still to run and how many records of the first one were already
 * delivered — into the cursor, compressed and signed with HMAC-SHA256 under a per-deployment secret
 * kept in the store (so the API that checks a cursor and the worker that follows it agree). A
 * tampered or foreign cursor fails verification: a 422 at submit, and a user can never make a worker
 * fetch a URL of their choosing (the steps inside were written by the adapter).
 *
 * Format: `c1.<base64url deflate(JSON)>.<base64url HMAC, 16 bytes>`.
 *
 * @example
 *   const signer = await cursorSigner(store);
 *   const c = signer.sign({ endpoint: '/bizdir-reviews', query: 'x', steps: [step], skip: 0 });
 *   signer.verify(c) // { endpoint, query, steps, skip }
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Step } from '../sources/_kit/adapter.ts';
import type { Store } from '../store/contract.ts';

export interface ResumePoint {
  endpoint: string;
  query: string;
  /** Steps still to run, the first one next. */
  steps: Step[];
  /** Records of the first step already delivered (a chunk cut by the query's limit). */
  skip: number;
}

/** Longest cursor accepted (each `cursor` parameter declares its own maximum; video-site
 *  continuation tokens alone are 4-9 KB, so their cursors run to about 9 KB). */
const MAX_TEXT = 16_384;
/** Largest decompressed payload: refuses a deflate bomb. */
const MAX_JSON = 64 * 1024;

export class CursorError extends Error {}

export class CursorSigner {
  constructor(private readonly key: string) {}

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(`c1.${payload}`).digest().subarray(0, 16);
  }

  sign(p: ResumePoint): string {
    const payload = deflateRawSync(JSON.stringify({ e: p.endpoint, q: p.query, s: p.steps, k: p.skip })).toString('base64url');
    return `c1.${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The resume point inside a cursor; throws CursorError saying why it is refused. */
  verify(text: string): ResumePoint {
    const parts = text.split('.');
    if (text.length > MAX_TEXT || parts.length !== 3 || parts[0] !== 'c1') throw new CursorError('it is not a next_page_cursor of this service');
    const [, payload, mac] = parts;
    const given = Buffer.from(mac, 'base64url');
    const want = this.mac(payload);
    if (given.length !== want.length || !timingSafeEqual(given, want)) throw new CursorError('its signature does not match (altered, or from another deployment)');
    let v: any;
    try {
      v = JSON.parse(inflateRawSync(Buffer.from(payload, 'base64url'), { maxOutputLength: MAX_JSON }).toString('utf8'));
    } catch {
      throw new CursorError('its content cannot be read');
    }
    if (typeof v?.e !== 'string' || typeof v.q !== 'string' || !Array.isArray(v.s) || !Number.isInteger(v.k) || v.k < 0) throw new CursorError('its content cannot be read');
    return { endpoint: v.e, query: v.q, steps: v.s, skip: v.k };
  }
}

const signers = new WeakMap<Store, Promise<CursorSigner>>();

/** The signer of this deployment (its secret read once per store object). */
export function cursorSigner(store: Store): Promise<CursorSigner> {
  let s = signers.get(store);
  if (!s) {
    s = store.secret('next_page_cursor').then((k) => new CursorSigner(k));
    signers.set(store, s);
    s.catch(() => signers.delete(store));
  }
  return s;
}

/**
 * Checks a submitted `cursor` against the request it comes with; returns why it is refused, or
 * undefined when it resumes one of `queries` on `endpoint`.
 *
 * @example await cursorProblem(store, '/bizdir-reviews', 'c1.x.y', ['q']) // 'cursor is refused: ...'
 */
export async function cursorProblem(store: Store, endpoint: string, cursor: string, queries: string[]): Promise<string | undefined> {
  let p: ResumePoint;
  try {
    p = (await cursorSigner(store)).verify(cursor);
  } catch (e) {
    if (e instanceof CursorError) return `cursor is refused: ${e.message}`;
    throw e;
  }
  if (p.endpoint !== endpoint) return `cursor is refused: it continues ${p.endpoint}, not ${endpoint}`;
  if (!queries.includes(p.query)) return `cursor is refused: it continues the query ${JSON.stringify(p.query.slice(0, 200))}, which this request does not have`;
  return undefined;
}
