/**
 * The layering of src/ (issue 37): every import runs down the table of docs/architecture.md
 * ("Layers") or within one row, and no files import each other in a cycle. The table is read from the
 * page itself, so the page and this check cannot drift apart; imports are read by TypeScript's own
 * scanner (static, `export ... from`, `import type`, and `import('...')`), not by a pattern that a
 * comment could fool.
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

/** Test support: imported by tests (from any row), never by the code they test. */
const isSupport = (p: string) => /(^|\/)testing(\/|\.ts$)|-testing\.ts$|\.testkit\.ts$/.test(p);
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

/** Everything wrong with a graph of files (paths under src/ → the paths they import) against the rows. */
export function problems(layers: string[][], graph: Map<string, string[]>): string[] {
  const out: string[] = [];
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
  return out;
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

/** Every .ts file under src/ with the files under src/ it imports (packages and paths outside src/ left out). */
function srcGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'))
      .map((s) => relative(SRC, resolve(dirname(file), s))).filter((p) => !p.startsWith('..'));
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const LAYERS = layersOf(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));

test('the check finds an upward import, a file in no row, test support in code, and a cycle', () => {
  const layers = [['low/'], ['high/']];
  const graph = new Map([
    ['low/a.ts', ['high/b.ts']], ['high/b.ts', ['low/a.ts']], ['high/c.ts', ['high/d.ts']], ['high/d.ts', ['high/c.ts', 'low/testing.ts']],
    ['nowhere/e.ts', []], ['high/e.test.ts', ['low/x-testing.ts']],
  ]);
  assert.deepEqual(problems(layers, graph), [
    'low/a.ts (row 1) imports high/b.ts (row 2): upward',
    'high/d.ts imports the test support low/testing.ts',
    'nowhere/e.ts is in no row of the Layers table',
    'import cycle: high/b.ts -> low/a.ts',
    'import cycle: high/c.ts -> high/d.ts',
  ]);
});

test('src/: no import from a lower row to a higher one, no import cycle (docs/architecture.md, "Layers")', () => {
  const graph = srcGraph();
  assert.ok(graph.size > 300, 'every file under src/ is read');
  assert.deepEqual(problems(LAYERS, graph), []);
});
