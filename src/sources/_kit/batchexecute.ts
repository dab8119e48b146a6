/**
 * Google's `batchexecute` RPC transport, as its web apps (Travel, Maps...) use it.
 *
 * Request: `POST /_/<App>/data/batchexecute` with the form body
 * `f.req=[[["<rpc id>","<inner JSON as a string>",null,"1"]]]`.
 * Answer: the anti-XSSI line `)]}'`, then either one JSON array or "chunks" (a length line, then a
 * JSON array line) holding frames; the data frame is `["wrb.fr","<rpc id>","<inner JSON as a
 * string>",...]`, next to bookkeeping frames (`["di",..]`, `["af.httprm",..]`, `["e",..]`).
 *
 * @example
 *   fReqBody('AtySUc', ['hotels in rome', [1]])      // 'f.req=%5B%5B%5B%22AtySUc%22...'
 *   rpcPayload(")]}'\n\n123\n[[\"wrb.fr\",\"AtySUc\",\"[1]\",null]]", 'AtySUc') // [1]
 */
import { stripXssi } from './xssi.ts';

/** The form body of one RPC call. */
export function fReqBody(rpcId: string, inner: unknown): string {
  return `f.req=${encodeURIComponent(JSON.stringify([[[rpcId, JSON.stringify(inner), null, '1']]]))}`;
}

/** Every `wrb.fr` frame of an answer: its RPC id and its payload string (null when the RPC failed). */
export function wrbFrames(body: string): Array<{ rpc: string; payload: string | null }> {
  const text = stripXssi(body);
  const out: Array<{ rpc: string; payload: string | null }> = [];
  const take = (v: unknown) => {
    if (!Array.isArray(v)) return;
    for (const f of v) {
      if (Array.isArray(f) && f[0] === 'wrb.fr' && typeof f[1] === 'string') {
        out.push({ rpc: f[1], payload: typeof f[2] === 'string' ? f[2] : null });
      }
    }
  };
  // One JSON array, or chunk lines: try each line that opens an array (JSON strings never hold a raw newline).
  try {
    take(JSON.parse(text));
    if (out.length) return out;
  } catch {
    /* chunked */
  }
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l.startsWith('[')) continue;
    try {
      take(JSON.parse(l));
    } catch {
      /* not a frame line */
    }
  }
  return out;
}

/** True when the body is a batchexecute answer (has at least one `wrb.fr` frame). */
export function isBatchexecute(body: string): boolean {
  return body.includes('wrb.fr') && wrbFrames(body).length > 0;
}

/**
 * The decoded inner JSON of the first `wrb.fr` frame of `rpcId` (any RPC when omitted); undefined
 * when there is none or its payload is not JSON, null when the frame carries no payload.
 */
export function rpcPayload(body: string, rpcId?: string): unknown {
  const f = wrbFrames(body).find((x) => rpcId === undefined || x.rpc === rpcId);
  if (!f) return undefined;
  if (f.payload === null) return null;
  try {
    return JSON.parse(f.payload);
  } catch {
    return undefined;
  }
}
