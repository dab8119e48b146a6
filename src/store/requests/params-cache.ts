/**
 * A request's parameters, parsed once per store and shared by its items' claims (both stores).
 * Parameters never change after the request is created, yet a claim read them with each item: a
 * monitor run's request carries what it knows of every one of its 1,000 places (`_knownPlaces`),
 * so each of its 1,000 claims decoded some 1,000 places again (the monitors bench's full-check day:
 * 19 % of the main thread in that parse, more in the garbage it left; docs/performance/monitors.md).
 * The object handed out is frozen throughout, since every item of the request gets the same one.
 *
 * @example const c = new ParamsCache(); c.get('r1') ?? c.put('r1', JSON.parse(text))
 */
type Params = Record<string, unknown>;

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}

export class ParamsCache {
  private readonly byRequest = new Map<string, Params>();

  /** `size`: requests kept, the least recently claimed dropped first (a few hundred KB each at most). */
  constructor(private readonly size = 32) {}

  get(requestId: string): Params | undefined {
    const p = this.byRequest.get(requestId);
    if (p) { this.byRequest.delete(requestId); this.byRequest.set(requestId, p); }
    return p;
  }

  /** The requests cached now (a claim asks the store for the others' parameters only). */
  ids(): string[] {
    return [...this.byRequest.keys()];
  }

  /** `keep` false: frozen as the cached ones, not kept (a request of one query is claimed once, so
   *  its id would only lengthen the list each PostgreSQL claim sends: issue 37, session 16). */
  put(requestId: string, params: Params, keep = true): Params {
    if (!keep) return deepFreeze(params);
    this.byRequest.set(requestId, deepFreeze(params));
    if (this.byRequest.size > this.size) this.byRequest.delete(this.byRequest.keys().next().value!);
    return params;
  }
}
