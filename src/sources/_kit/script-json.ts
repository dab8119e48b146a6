/**
 * Embedded page state: the JSON of a page's data scripts (`<script type="application/json">`,
 * Apollo/hypernova state whose JSON sits inside `<!-- -->`), and a walk that collects every value
 * matching a test anywhere inside them.
 *
 * @example
 *   const blobs = scriptJson(html);
 *   const reviews = blobs.flatMap((b) => collect(b, isReview));
 */
export function scriptJson(html: string): unknown[] {
  const out: unknown[] = [];
  const re = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (!/application\/json|data-apollo-state|data-hypernova|data-deferred-state|data-injector/i.test(m[1])) continue;
    const text = m[2].trim().replace(/^<!--/, '').replace(/-->$/, '').trim();
    try {
      out.push(JSON.parse(text));
    } catch {
      // not JSON: skipped
    }
  }
  return out;
}

/** Every value under `root` that passes `test` (not looking inside a match), in document order. */
export function collect<T>(root: unknown, test: (v: unknown) => v is T): T[] {
  const found: T[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (test(v)) {
      found.push(v);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x);
  };
  walk(root);
  return found;
}
