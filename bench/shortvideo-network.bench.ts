/**
 * Parser throughput of `/shortvideo-comments` and `/network-posts`, as MB/s and as a ratio to a
 * baseline measured in the same run on the same body:
 *   - the real comment list body (tiktok/comment_list_body_2026-02.json, 63 KB) → a bare JSON.parse;
 *   - the constructed signed-in feed answer grown to 20 updates (voyager JSON) → a bare JSON.parse;
 *   - the constructed logged-out company page, padded to a page's size → the kit's parseHtml alone
 *     (htmlparser2), the floor any tree-based reading of the page pays.
 * Medians of 5 runs of ~0.3 s each. With --write, writes docs/performance/shortvideo-network.md.
 * Run: node bin/run-ts.js bench/shortvideo-network.bench.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { adapter as shortvideo } from '../src/sources/shortvideo-comments/adapter.ts';
import { makeAdapter as network } from '../src/sources/network-posts/adapter.ts';
import { networkSettings } from '../src/sources/network-posts/settings.ts';
import { parseHtml } from '../src/sources/_kit/html.ts';
import { fixturePath } from '../src/sources/_kit/fixtures.ts';
import { median, table, writeSection } from './lib.ts';

const RUNS = 5;
const RUN_MS = 300;

/** Bodies parsed per second during one run. */
function perSec(fn: () => unknown): number {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < RUN_MS) {
    for (let i = 0; i < 10; i++) fn();
    n += 10;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}

const rows: string[][] = [];
/** Our parser and its baseline, interleaved run by run so both see the same machine load. */
function row(name: string, body: string, ours: () => unknown, baseName: string, base: () => unknown) {
  for (let i = 0; i < 30; i++) { ours(); base(); }
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < RUNS; r++) { a.push(perSec(ours)); b.push(perSec(base)); }
  const mb = Buffer.byteLength(body) / 1e6;
  const oa = median(a);
  const ob = median(b);
  rows.push([name, (mb * 1000).toFixed(1), (oa * mb).toFixed(1), baseName, (ob * mb).toFixed(1), (oa / ob).toFixed(2)]);
}

const res = (body: string, url = 'https://www.tiktok.com/api/comment/list/') => ({ status: 200, url, headers: {}, body });

const BODY = fixturePath('tiktok', 'comment_list_body_2026-02.json');
if (existsSync(BODY)) {
  const body = readFileSync(BODY, 'utf8');
  const a = shortvideo;
  const ctx = { query: '7603296357641735445', params: { limit_per_query: 100 } };
  const [step] = a.plan(ctx);
  if (a.parse(step, res(body), ctx).records.length !== 19) throw new Error('the real body should give 19 comments');
  row('short-video comment list (19 comments, real)', body, () => a.parse(step, res(body), ctx), 'JSON.parse', () => JSON.parse(body));
} else {
  process.stdout.write(`skipped the real comment list: ${BODY} not found (set FIXTURES_DIR)\n`);
}

/** The constructed feed answer grown to a real page's shape: 20 updates, each with its social
 *  detail and counts, plus the actor and image entities the site includes beside them. */
function feedOf20(): string {
  const j = JSON.parse(readFileSync('src/sources/network-posts/constructed-voyager-updates.json', 'utf8'));
  const [counts, detail, update] = j.included as any[];
  const included: any[] = [];
  const elements: string[] = [];
  for (let i = 0; i < 20; i++) {
    const id = String(7265743553410330624n - BigInt(i) * 1_000_000_000_000n);
    const swap = (o: any) => JSON.parse(JSON.stringify(o).replaceAll('7265743553410330624', id));
    const u = swap(update);
    u.commentary.text.text = `${u.commentary.text.text} ${'More constructed text. '.repeat(20)}`;
    included.push(swap(counts), swap(detail), u);
    included.push({ $type: 'com.linkedin.voyager.identity.shared.MiniCompany', entityUrn: `urn:li:fs_miniCompany:${i}`, name: 'Constructed Robotics', universalName: 'constructed-robotics',
      logo: { 'com.linkedin.common.VectorImage': { rootUrl: 'https://media.licdn.com/dms/image/v2/C0NSTRUCTEDL/', artifacts: Array.from({ length: 4 }, (_, k) => ({ width: 100 * (k + 1), height: 100 * (k + 1), expiresAt: 1800000000000, fileIdentifyingUrlPathSegment: `company-logo_${100 * (k + 1)}/0/1700000000000?e=2147483647&v=beta&t=${'x'.repeat(40)}` })) } } });
    elements.push(u.entityUrn);
  }
  j.included = included;
  j.data['*elements'] = elements;
  j.data.paging.total = 20;
  return JSON.stringify(j);
}
const feed = feedOf20();
const n = network(networkSettings({ NETWORK_POSTS_COOKIES: 'li_at=x; JSESSIONID="ajax:1"' }));
const fCtx = { query: 'constructed-robotics', params: { limit: 100 } };
const [fStep] = n.plan(fCtx);
row('network feed answer (20 posts, constructed)', feed, () => n.parse(fStep, res(feed, fStep.url), fCtx), 'JSON.parse', () => JSON.parse(feed));

// A real company page is ~300-500 KB: the constructed one padded with other markup to that size.
const pad = '<div class="x"><span>filler</span><a href="/company/x?trk=y">link</a></div>\n'.repeat(4500);
const page = readFileSync('src/sources/network-posts/constructed-company-page.html', 'utf8').replace('<main>', `<main>${pad}`);
const out = network({ signedIn: false });
const pCtx = { query: 'constructed-robotics', params: { limit: 100 } };
const [pStep] = out.plan(pCtx);
if (out.parse(pStep, res(page, pStep.url), pCtx).records.length !== 3) throw new Error('the padded page should give 3 posts');
row('network company page (3 posts, constructed, padded)', page, () => out.parse(pStep, res(page, pStep.url), pCtx), 'parseHtml', () => parseHtml(page));

const text = [
  '# Short-video comments and network posts: parser throughput',
  '',
  'Parsing one response into records, against a baseline on the same body in the same run (medians of 5 runs of 0.3 s, interleaved). The JSON target: at least 0.5x of a bare `JSON.parse`.',
  '',
  table(['body', 'KB', 'ours MB/s', 'baseline', 'baseline MB/s', 'ratio'], rows),
  '',
  'The comment list parser is one `JSON.parse` plus a walk over the comments (no second pass, no regular expressions on the body). The company page parser builds the htmlparser2 tree once (the baseline) and reads the cards with css-select on top.',
  '',
  'Run: `node bin/run-ts.js bench/shortvideo-network.bench.ts` (or `npm run bench -- shortvideo`).',
].join('\n');
writeSection('docs/performance/shortvideo-network.md', text);
process.stdout.write(`${text}\n`);
