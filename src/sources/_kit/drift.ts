/**
 * Drift: how a site's answers change under a parser, applied to a sample so a test can see what the
 * parser makes of it. Mutations aim at the nodes the records were read from (leaves whose value a
 * record carries): a key renamed, a list's items moved or a tuple's slots shifted by one, a block
 * wrapped one level deeper, a value emptied, an ad (an object entry flagged sponsored) inserted
 * beside the records' own nodes. A page's embedded JSON (`embeddedJson`, `recordsBlock`) is changed
 * the same way and written back in its place. A verdict
 * compares the records of the changed answer with those of the original: each changed answer must
 * be parsed right, lose values (null, fewer records; inside lists and objects too) or be refused with
 * an error; a record with a value the original did not have is silently wrong. Pure; bounded by `perKind`.
 *
 * @example for (const m of mutations(json, baseline, 'seed')) check(baseline, parse(JSON.stringify(m.doc)))
 */
import { literalEnd, parseLooseJson } from './embedded.ts';

type Json = unknown;
type Path = Array<string | number>;

export type MutationKind = 'rename' | 'move' | 'wrap' | 'empty' | 'ad';

export interface Mutation {
  kind: MutationKind;
  /** Where, for the failure message: `a.b[3].c`. */
  where: string;
  doc: Json;
}

/** A small deterministic generator (mulberry32) seeded by a text. */
function rng(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353), (h = (h << 13) | (h >>> 19));
  return () => {
    h = (h + 0x6d2b79f5) | 0;
    let t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The primitive values records carry that are distinctive enough to locate their source node. */
export function recordValues(records: unknown[]): Set<string | number> {
  const out = new Set<string | number>();
  const add = (v: unknown, depth: number) => {
    if (typeof v === 'string' && v.length >= 4) out.add(v);
    else if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) > 1 && String(v).length >= 3) out.add(v);
    else if (Array.isArray(v) && depth < 3) for (const x of v) add(x, depth + 1);
    else if (v && typeof v === 'object' && depth < 3) for (const x of Object.values(v)) add(x, depth + 1);
  };
  for (const r of records) if (r && typeof r === 'object') for (const [k, v] of Object.entries(r)) if (k !== 'query') add(v, 0);
  return out;
}

/** Paths of the leaves whose value a record carries, in document order. */
export function sourcePaths(doc: Json, values: Set<string | number>, max = 5000): Path[] {
  const out: Path[] = [];
  const walk = (v: Json, path: Path, depth: number) => {
    if (out.length >= max || depth > 60) return;
    if ((typeof v === 'string' || typeof v === 'number') && values.has(v)) out.push(path);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i], depth + 1));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k], depth + 1);
  };
  walk(doc, [], 0);
  return out;
}

const clone = <T>(v: T): T => structuredClone(v);
const show = (p: Path) => p.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') || '(root)';

function at(doc: Json, path: Path): Json {
  let cur: any = doc;
  for (const k of path) cur = cur?.[k];
  return cur;
}

/** The record-bearing object or tuple around a leaf: its nearest ancestor (not the leaf) that is an element of a list. */
function elementAncestor(doc: Json, path: Path): number {
  for (let i = path.length - 1; i > 0; i--) {
    if (typeof path[i] !== 'number') continue;
    const el = at(doc, path.slice(0, i + 1));
    if (el && typeof el === 'object') return i;
  }
  return -1;
}

/** The list holding the leaf's entry, the entry's index and where in the path it is. */
function listAround(doc: Json, path: Path): { list: any[]; idx: number; i: number } | null {
  const i = elementAncestor(doc, path);
  if (i < 0) return null;
  const list = at(doc, path.slice(0, i));
  return Array.isArray(list) ? { list, idx: path[i] as number, i } : null;
}

/** One mutation of `kind` at the leaf `path` of a copy of `doc`; null when it does not apply there. */
function mutate(doc: Json, path: Path, kind: MutationKind): Mutation | null {
  const d = clone(doc);
  const parentPath = path.slice(0, -1);
  const parent: any = at(d, parentPath);
  const key = path[path.length - 1]!;
  if (parent === null || typeof parent !== 'object') return null;
  switch (kind) {
    case 'rename': {
      if (Array.isArray(parent)) return null;
      const entries = Object.entries(parent).map(([k, v]) => [k === key ? `${k}V2` : k, v] as const);
      for (const k of Object.keys(parent)) delete parent[k];
      for (const [k, v] of entries) parent[k] = v;
      return { kind, where: show(path), doc: d };
    }
    case 'empty': {
      const v = parent[key];
      parent[key] = typeof v === 'string' ? '' : null;
      return { kind, where: show(path), doc: d };
    }
    case 'wrap': {
      // The leaf's holder moves one level down, under a new key (objects) or a one-item list (tuples).
      if (parentPath.length === 0) return null;
      const grand: any = at(d, parentPath.slice(0, -1));
      const pk = parentPath[parentPath.length - 1]!;
      grand[pk] = Array.isArray(parent) ? [parent] : { data: parent };
      return { kind, where: show(parentPath), doc: d };
    }
    case 'move': {
      // A list of records: two of its items change places. A tuple: a new slot before the leaf shifts it.
      const around = listAround(d, path);
      if (!around) return null;
      const { list, idx, i } = around;
      const records = list.filter((x: unknown) => x && typeof x === 'object').length;
      if (records >= 2 && list.length >= 2) {
        const j = idx + 1 < list.length ? idx + 1 : idx - 1;
        [list[idx], list[j]] = [list[j], list[idx]];
        return { kind, where: `${show(path.slice(0, i))}[${idx}<->${j}]`, doc: d };
      }
      if (Array.isArray(parent)) {
        parent.splice(key as number, 0, null);
        return { kind, where: `${show(parentPath)} slot ${key} shifted`, doc: d };
      }
      return null;
    }
    case 'ad': {
      // A sponsored entry beside the records' own: a copy of one of them marked as an ad, with a name
      // and id of its own (a parser that reads it must say it is sponsored, or leave it out).
      const around = listAround(d, path);
      if (!around) return null;
      const { list, idx, i } = around;
      // A tuple (positional answers) carries no mark: an ad there comes in its own block, which each
      // such parser's own tests cover (hotels: the sponsored block).
      if (!list[idx] || typeof list[idx] !== 'object' || Array.isArray(list[idx])) return null;
      const ad = retag(clone(list[idx]));
      list.splice(idx, 0, ad);
      return { kind, where: `${show(path.slice(0, i))}[${idx}] ad`, doc: d };
    }
  }
}

/** An ad made from an entry: every distinctive text and id changed, flagged sponsored where it is an object. */
function retag(v: Json): Json {
  const walk = (x: any): any => {
    if (typeof x === 'string') return x.length >= 4 ? `AD ${x}` : x;
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, y] of Object.entries(x)) o[k] = walk(y);
      return { ...o, isSponsored: true, __typename: typeof x.__typename === 'string' ? `Sponsored${x.__typename}` : 'SponsoredAd' };
    }
    return x;
  };
  return walk(v);
}

/**
 * Up to `perKind` mutations of each kind, at leaves the records were read from, picked by a
 * generator seeded with `seed` (the same sample gets the same mutations on every run).
 */
export function mutations(doc: Json, records: unknown[], seed: string, perKind = 6): Mutation[] {
  const paths = sourcePaths(doc, recordValues(records));
  const next = rng(seed);
  const out: Mutation[] = [];
  for (const kind of ['rename', 'move', 'wrap', 'empty', 'ad'] as MutationKind[]) {
    const tried = new Set<number>();
    let made = 0;
    for (let n = 0; n < perKind * 4 && made < perKind && tried.size < paths.length; n++) {
      const k = Math.floor(next() * paths.length);
      if (tried.has(k)) continue;
      tried.add(k);
      const m = mutate(doc, paths[k]!, kind);
      if (m) {
        out.push(m);
        made++;
      }
    }
  }
  return out;
}

/** A JSON document a page carries in a script, and the page again with another document in its place. */
export interface EmbeddedJson {
  doc: Json;
  serve: (d: Json) => string;
}

/**
 * The JSON a page's scripts carry: a script whose body is a JSON literal (`<script
 * type="application/json">`, `__NEXT_DATA__`, Apollo state...), and each `{...}` / `[...]` literal
 * assigned in an inline script (`var ytInitialData = {...};`, `window.__STATE__ = [...]`). Each
 * comes with a `serve` that writes a changed document back in its place, with `<` escaped so the
 * script still ends where it did.
 * @example embeddedJson('<script>var d = {"a":1};</script>')[0].doc // { a: 1 }
 */
export function embeddedJson(html: string): EmbeddedJson[] {
  const out: EmbeddedJson[] = [];
  const lower = html.toLowerCase();
  const open = /<script\b[^>]*>/gi;
  const put = (from: number, to: number) => (d: Json) => html.slice(0, from) + JSON.stringify(d).replace(/</g, '\\u003c') + html.slice(to);
  let m: RegExpExecArray | null;
  while ((m = open.exec(html))) {
    const start = m.index + m[0].length;
    const end = lower.indexOf('</script', start);
    if (end < 0) break;
    open.lastIndex = end;
    const body = html.slice(start, end);
    // The whole body a literal, bare or in the `<!-- -->` some pages wrap it in.
    const lit = /^(\s*(?:<!--)?\s*)([[{][\s\S]*[\]}])\s*(?:-->)?\s*$/.exec(body);
    const whole = lit ? parseLooseJson(lit[2]!) : undefined;
    if (lit && whole !== undefined && whole !== null && typeof whole === 'object') {
      const from = start + lit[1]!.length;
      out.push({ doc: whole, serve: put(from, from + lit[2]!.length) });
      continue;
    }
    for (const a of body.matchAll(/=\s*(?=[[{])/g)) {
      const from = start + a.index! + a[0].length;
      const to = literalEnd(html, from);
      if (to < 0 || to > end) continue;
      const doc = parseLooseJson(html.slice(from, to));
      if (doc !== undefined && doc !== null && typeof doc === 'object') out.push({ doc, serve: put(from, to) });
    }
  }
  return out;
}

/**
 * The embedded document of a page that the records were read from: the one holding most of their
 * values (at least `min` leaves); null when none does (a page read from its markup).
 */
export function recordsBlock(html: string, records: unknown[], min = 5): EmbeddedJson | null {
  const values = recordValues(records);
  let best: EmbeddedJson | null = null;
  let most = min - 1;
  for (const b of embeddedJson(html)) {
    const n = sourcePaths(b.doc, values, 1000).length;
    if (n > most) [best, most] = [b, n];
  }
  return best;
}

type Rec = Record<string, unknown>;

const lost = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

const plain = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value the changed answer gave for a field: the original's, or less (lost, a part of it; inside lists and objects too). */
function sameOrLess(now: unknown, was: unknown): boolean {
  if (lost(now)) return true;
  if (typeof now === 'number' && typeof was === 'number') return now === was || Math.abs(now - was) <= Math.max(1, Math.abs(was) * 0.01);
  if (Array.isArray(now) && Array.isArray(was)) return now.every((x) => was.some((y) => sameOrLess(x, y)));
  if (plain(now) && plain(was)) return Object.entries(now).every(([k, v]) => sameOrLess(v, was[k]));
  return JSON.stringify(now) === JSON.stringify(was);
}

const IDS = /(^id$|_id$|^url$|_url$|^link$)/;

/** The identity fields of a record: its ids and links with a value. */
const idsOf = (r: Rec) => Object.entries(r).filter(([k, v]) => IDS.test(k) && !lost(v) && k !== 'next_page_cursor').map(([k, v]) => `${k}=${JSON.stringify(v)}`);

/** Every field of `r` the same as `was`'s or less. */
const sameOrLessRecord = (r: Rec, was: Rec, exempt: ReadonlySet<string>) =>
  Object.entries(r).every(([k, v]) => k === 'query' || exempt.has(k) || sameOrLess(v, was[k]));

/**
 * Problems of the records of a changed answer against the original's: a record no original has
 * (by any id; a record without an id of its own, by its values), a field whose value is neither the
 * original's nor lost, every record gone while the answer was accepted (an empty success).
 * Nothing when it is all the original's or less. An id several original records share identifies
 * them only when they are one record repeated (a sample that lists a review twice); otherwise
 * (a business id on every review) it identifies none.
 */
export function driftProblems(before: unknown[], after: unknown[], exempt: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  if (before.length > 0 && after.length === 0) return ['the changed answer gave no record and no error: an empty success'];
  const byId = new Map<string, Rec>();
  const dup = new Set<string>();
  for (const r of before as Rec[]) {
    for (const id of idsOf(r)) {
      const had = byId.get(id);
      if (!had) byId.set(id, r);
      else if (JSON.stringify(had) !== JSON.stringify(r)) dup.add(id);
    }
  }
  for (const r of after as Rec[]) {
    const ids = idsOf(r).filter((id) => !dup.has(id));
    const matches = new Set(ids.map((id) => byId.get(id)).filter(Boolean));
    if (matches.size === 0) {
      if (r.sponsored === true || r.is_sponsored === true) continue; // an ad that says it is one
      // No id of its own to go by (none, lost, or shared): one of the original's records, or less, is not a stranger.
      if (ids.length === 0 && (before as Rec[]).some((was) => sameOrLessRecord(r, was, exempt))) continue;
      problems.push(`a record the original does not have: ${JSON.stringify(r).slice(0, 200)}`);
      continue;
    }
    if (matches.size > 1) {
      problems.push(`a record mixing two of the original's: ${ids.join(' ')}`);
      continue;
    }
    const was = [...matches][0]!;
    for (const [k, v] of Object.entries(r)) {
      if (k === 'query' || exempt.has(k)) continue;
      if (!sameOrLess(v, was[k])) problems.push(`${k}: ${JSON.stringify(v)?.slice(0, 80)} where the original has ${JSON.stringify(was[k])?.slice(0, 80)}`);
    }
  }
  return problems;
}
