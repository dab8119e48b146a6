/**
 * Reading loose JSON of site answers into record values: a missing or mistyped branch gives null
 * (decision 22), never a throw. Shared by adapters that read GraphQL answers and page state by shape.
 *
 * @example
 *   str(obj(node)?.name) // 'Ana' or null
 *   idOf(123) // '123'
 */
export type Obj = Record<string, unknown>;

/** The value as a plain object, else null. */
export const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);
/** A non-blank string, else null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
/** A finite number rounded to an integer (digit strings too), else null. */
export const int = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? Math.round(n) : null;
};
/** A finite number (digit strings too), else null. */
export const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
/** An id as a string (numbers stringified), else null. */
export const idOf = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v));
/** A web link (`https://...`, `http://...`), else null: a media list entry that is not one is no picture of the record. */
export const webLink = (v: unknown): string | null => (typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v) ? v : null);
/** The objects of an array (other entries dropped); [] for a non-array. */
export const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj).filter((o): o is Obj => o !== null) : []);

/**
 * The nodes of a GraphQL connection: `edges[].node`, or `nodes[]`, or a bare list.
 * @example connectionNodes({ edges: [{ node: { id: 1 } }] }) // [{ id: 1 }]
 */
export function connectionNodes(v: unknown): Obj[] {
  if (Array.isArray(v)) return objs(v);
  const c = obj(v);
  if (!c) return [];
  if (Array.isArray(c.edges)) return objs(c.edges).map((e) => obj(e.node) ?? e);
  return objs(c.nodes);
}

/**
 * An entry a site marks as paid placement (`isSponsored`, `sponsored`, `promoted`, `isAd`, a
 * `Sponsored…`/`Promoted…`/`Ad…` typename): not one of the listing's own entries.
 * @example isAdNode({ __typename: 'SponsoredMenuPageItem', id: '1' }) // true
 */
export function isAdNode(v: unknown): boolean {
  const o = obj(v);
  if (!o) return false;
  if (o.isSponsored === true || o.sponsored === true || o.promoted === true || o.isAd === true || o.is_ad === true) return true;
  return typeof o.__typename === 'string' && /^(Sponsored|Promoted|Ad[A-Z_]|Ad$)/.test(o.__typename);
}
