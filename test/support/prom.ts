/**
 * Reads Prometheus text exposition for tests.
 *
 * @example
 *   const m = parseMetrics(await (await fetch(`${url}/metrics`)).text());
 *   pick(m, 'trawl_work_items', { state: 'done' }) // 3
 */

/** Prometheus text → `name{labels}` → value. @example parseMetrics('a{b="c"} 1').get('a{b="c"}') // 1 */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) out.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return out;
}

/** Sum of the series `name` whose labels include every pair of `labels`; undefined when none.
 *  @example pick(m, 'trawl_http_requests_total', { status: '200' }) */
export function pick(all: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined {
  let sum: number | undefined;
  for (const [k, v] of all) {
    if (k !== name && !k.startsWith(`${name}{`)) continue;
    if (!Object.entries(labels).every(([l, val]) => k.includes(`${l}="${val}"`))) continue;
    sum = (sum ?? 0) + v;
  }
  return sum;
}
