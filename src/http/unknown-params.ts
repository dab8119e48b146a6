/**
 * Parameters a call gave that the operation does not read. Decision 2 ignores them (real clients send
 * extras), but silently ignoring a typo such as `limitt=5` runs the query with the default: each
 * answer names them in `X-Unknown-Parameters` (with the nearest known name), the log says so, and an
 * operator who prefers refusals sets STRICT_PARAMS=true (422).
 *
 * @example unknownParams(parseQueryString('limitt=5&query=a'), ['query', 'limit']) // [{ name: 'limitt', near: 'limit' }]
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { RawParams } from '../contract/params.ts';
import { headerSafe } from '../engine/reason.ts';

/** Accepted on every authenticated call (src/http/limits.ts reads it). */
const ALWAYS = ['apiKey'];

export interface Unknown { name: string; near?: string }

/** Edit distance, stopped early past 2 (only near misses are suggested). */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

export function unknownParams(raw: RawParams, known: Iterable<string>): Unknown[] {
  const names = new Set([...known, ...ALWAYS]);
  const out: Unknown[] = [];
  for (const name of raw.keys()) {
    if (names.has(name)) continue;
    let near: string | undefined;
    let best = 3;
    for (const k of names) {
      const d = distance(name.toLowerCase(), k.toLowerCase());
      if (d < best) { best = d; near = k; }
    }
    out.push({ name, near });
  }
  return out;
}

const shown = (u: Unknown) => (u.near ? `${u.name} (did you mean ${u.near}?)` : u.name);

/** Names the unknown parameters in the answer's header and the log; refuses them (422) in strict mode. */
export function reportUnknown(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, known: Iterable<string>): void {
  const unknown = unknownParams(req.raw_params ?? new Map(), known);
  if (!unknown.length) return;
  const list = unknown.map(shown).join(', ').slice(0, 500);
  if (ctx.settings.strictParams) {
    throw new AppError(422, `unknown parameter${unknown.length > 1 ? 's' : ''} ${list}: this deployment refuses parameters it does not read (STRICT_PARAMS)`);
  }
  reply.header('x-unknown-parameters', headerSafe(unknown.map((u) => u.name).join(', ').slice(0, 500)));
  ctx.log.warn({ reqId: req.id, route: req.routeOptions.url, unknown: unknown.map((u) => u.name) }, `unknown parameters ignored: ${list}`);
}
