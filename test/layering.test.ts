/**
 * The layering of src/ (issue 37): every import runs down the table of docs/architecture.md
 * ("Layers") or within one row, a row holds folders, and neither files nor folders import each other
 * in a cycle. The table is read from the page itself, so the page and this check cannot drift apart;
 * imports are read by TypeScript's own scanner (static, `export ... from`, `import type`, and
 * `import('...')`) and parser (a module loaded by URL, `new URL('./x.ts', import.meta.url)`, as thread
 * jobs and lazy adapters are), not by a pattern that a comment could fool.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

/** Rows of the "Layers" table, lowest first: each row's path prefixes under src/. */
export function layersOf(page: string): string[][] {
  const at = page.indexOf('\n## Layers');
  assert.ok(at >= 0, 'docs/architecture.md has a "## Layers" section');
  const section = page.slice(at + 1).split(/\n## /)[0];
  const rows: string[][] = [];
  for (const line of section.split('\n')) {
    const m = /^\|\s*(\d+)\s*\|([^|]*)\|/.exec(line);
    if (!m) continue;
    assert.equal(Number(m[1]), rows.length + 1, `rows are numbered 1, 2, ... in order (got ${m[1]})`);
    rows.push([...m[2].matchAll(/`([^`]+)`/g)].map((x) => x[1]));
  }
  assert.ok(rows.length > 3, 'the Layers table has its rows');
  return rows;
}

/** Test support: imported by tests (from any row), never by the code they test; `../test/` is the repository's test/. */
const isSupport = (p: string) => /(^|\/)testing(\/|\.ts$)|-testing\.ts$|\.testkit\.ts$|^\.\.\/test\//.test(p);
const isTest = (p: string) => p.endsWith('.test.ts');

/** The row (0 = lowest) of a path under src/: the longest prefix that matches it; -1 when none does. */
export function rowOf(layers: string[][], path: string): number {
  let row = -1;
  let len = -1;
  layers.forEach((prefixes, i) => {
    for (const p of prefixes) if (path.startsWith(p) && p.length > len) [row, len] = [i, p.length];
  });
  return row;
}

/** The folder of the table that holds a path: the longest entry that is a folder and matches it. */
export function folderOf(layers: string[][], path: string): string | undefined {
  let best: string | undefined;
  for (const p of layers.flat()) if (p.endsWith('/') && path.startsWith(p) && p.length > (best?.length ?? -1)) best = p;
  return best;
}

/** Everything wrong with a graph of files (paths under src/ → the paths they import) against the rows. */
export function problems(layers: string[][], graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  layers.forEach((prefixes, i) => {
    for (const p of prefixes) if (!p.endsWith('/')) out.push(`\`${p}\` (row ${i + 1}) is not a folder: a row holds folders`);
  });
  for (const [from, targets] of graph) {
    const a = rowOf(layers, from);
    if (a < 0) { out.push(`${from} is in no row of the Layers table`); continue; }
    for (const to of targets) {
      if (isSupport(to)) {
        if (!isTest(from) && !isSupport(from)) out.push(`${from} imports the test support ${to}`);
        continue;
      }
      const b = rowOf(layers, to);
      if (b > a) out.push(`${from} (row ${a + 1}) imports ${to} (row ${b + 1}): upward`);
    }
  }
  for (const cycle of cycles(graph)) out.push(`import cycle: ${cycle.join(' -> ')}`);
  for (const cycle of cycles(folderGraph(layers, graph))) out.push(`folder cycle: ${cycle.join(' -> ')}`);
  return out;
}

/** The graph of the table's folders: one folder imports another when one of its files does (test support left out). */
function folderGraph(layers: string[][], graph: Map<string, string[]>): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const a = folderOf(layers, from);
    if (a === undefined) continue;
    const set = out.get(a) ?? out.set(a, new Set()).get(a)!;
    for (const to of targets) {
      const b = folderOf(layers, to);
      if (b !== undefined && b !== a && !isSupport(to)) set.add(b);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}

/** Strongly connected groups of more than one file (Tarjan), each as its sorted files. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); group.push(w); } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out);
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The relative modules a file loads by URL: `new URL('./x.ts', import.meta.url)` in code (not in a comment). */
export function urlLoads(name: string, text: string): string[] {
  if (!text.includes('import.meta.url')) return [];
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      const [spec, base] = node.arguments ?? [];
      if (spec && base && ts.isStringLiteralLike(spec) && /^\.\.?\/.*\.[cm]?[jt]s$/.test(spec.text)
        && base.getText() === 'import.meta.url') found.push(spec.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true));
  return found;
}

/** Every .ts file under src/ with the files under src/ (and test/) it imports or loads by URL (packages and other paths outside src/ left out). */
function srcGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const imports = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    const targets = [...imports, ...urlLoads(file, text)].filter((s) => s.startsWith('.'))
      .map((s) => relative(SRC, resolve(dirname(file), s))).filter((p) => !p.startsWith('..') || isSupport(p));
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const LAYERS = layersOf(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));

/**
 * Problems known and left, each with why (docs/architecture.md, "Layers"). Empty is the aim; an entry
 * that no longer occurs fails the test too, so the list only shrinks.
 */
const ALLOWED = new Map<string, string>([
]);

test('the check finds an upward import, a file in no row, test support in code, file and folder cycles, a file as a row entry', () => {
  const layers = [['low/'], ['high/', 'high/top.']];
  const graph = new Map([
    ['low/a.ts', ['high/b.ts']], ['high/b.ts', ['low/a.ts']], ['high/c.ts', ['high/d.ts']], ['high/d.ts', ['high/c.ts', 'low/testing.ts']],
    ['nowhere/e.ts', []], ['high/e.test.ts', ['low/x-testing.ts', '../test/support/y.ts']], ['high/top.ts', ['../test/support/y.ts']],
  ]);
  assert.deepEqual(problems(layers, graph), [
    '`high/top.` (row 2) is not a folder: a row holds folders',
    'low/a.ts (row 1) imports high/b.ts (row 2): upward',
    'high/d.ts imports the test support low/testing.ts',
    'nowhere/e.ts is in no row of the Layers table',
    'high/top.ts imports the test support ../test/support/y.ts',
    'import cycle: high/b.ts -> low/a.ts',
    'import cycle: high/c.ts -> high/d.ts',
    'folder cycle: high/ -> low/',
  ]);
  // Two folders of one row that import each other are a cycle though neither import is upward.
  assert.deepEqual(problems([['a/', 'b/']], new Map([['a/x.ts', ['b/y.ts']], ['b/y.ts', []], ['b/z.ts', ['a/w.ts']], ['a/w.ts', []]])),
    ['folder cycle: a/ -> b/']);
});

test('a module loaded by URL is an import; one named in a comment or built from a variable is not', () => {
  const text = [
    "/** @example new URL('./in-comment.ts', import.meta.url) */",
    "const a = new URL('./job.ts', import.meta.url);",
    "const b = new URL('../up/adapter.ts', import.meta.url);",
    "const c = new URL('./migrations/', import.meta.url);",
    "const d = new URL(name, import.meta.url);",
    "const e = new URL('./other.ts', base);",
  ].join('\n');
  assert.deepEqual(urlLoads('x.ts', text), ['./job.ts', '../up/adapter.ts']);
});

test('src/: no import from a lower row to a higher one, no file or folder cycle (docs/architecture.md, "Layers")', () => {
  const graph = srcGraph();
  assert.ok(graph.size > 300, 'every file under src/ is read');
  const found = problems(LAYERS, graph);
  assert.deepEqual(found.filter((p) => !ALLOWED.has(p)), [], 'problems not in the allow-list');
  assert.deepEqual([...ALLOWED.keys()].filter((p) => !found.includes(p)), [], 'allow-list entries that no longer occur: remove them');
});
