/**
 * `/emails-finder`: "<full name> <domain>" → the person's address at that domain, by asking the
 * domain's mail server about the likely patterns in order and stopping at the first it accepts.
 *
 * A catch-all domain accepts every candidate, so nothing can be verified there: the answer is the
 * most common pattern, marked unverified.
 */
import { rcptVerdict, replyLine } from './classify.ts';
import { disposableHit } from './lists.ts';
import { candidates } from './names.ts';
import { parseFinderQuery, type FinderQuery } from './finder-query.ts';
import { verifierFor, type EmailVerifier } from './verifier.ts';
import { routeVerdict, type EmailStatus } from './validate.ts';
import type { FinderRecord } from '../../contract/records/emails-finder.ts';

export type { FinderRecord, FinderQuery };
export { parseFinderQuery };

/** RCPTs per session before starting a fresh one (servers drop clients after many misses). */
const RCPT_PER_SESSION = 8;
const MAX_SESSIONS = 4;

function record(query: string, q: FinderQuery | null): FinderRecord {
  const ok = q && q.ok ? q : null;
  return {
    query,
    full_name: ok?.fullName ?? null,
    first_name: ok?.name.first ?? null,
    last_name: ok?.name.last ?? null,
    domain: ok?.domain ?? null,
    email: null,
    status: 'UNKNOWN',
    status_details: '',
    verified: false,
    pattern: null,
    candidates_tried: [],
    is_catch_all: null,
    mx: [],
  };
}

function end(rec: FinderRecord, status: EmailStatus, details: string): FinderRecord {
  rec.status = status;
  rec.status_details = details;
  return rec;
}

/**
 * Finds the address with a verifier (settings, caches, per-domain limits).
 * @example (await findWith(new EmailVerifier({ smtpPort: 2525 }), 'John Smith example.com')).email // 'jsmith@example.com'
 */
export async function findWith(v: EmailVerifier, query: string, opts: { signal?: AbortSignal } = {}): Promise<FinderRecord> {
  const q = parseFinderQuery(query);
  const rec = record(query, q);
  if (!q.ok) return end(rec, 'INVALID_FORMAT', q.message);
  const domain = q.domain;
  const list = candidates(q.name).map((c) => ({ ...c, address: `${c.local}@${domain}` }));
  const guess = list[0];

  const hit = disposableHit(domain);
  if (hit) return end(rec, 'DISPOSABLE', `disposable address domain (${hit.matched}; listed by ${hit.list}); not probed`);

  const route = await v.route(domain);
  if (route.kind !== 'mx' && route.kind !== 'implicit') {
    const { status, details } = routeVerdict(route);
    return end(rec, status, details);
  }
  rec.mx = route.hosts.map((h) => h.exchange);
  if (!v.settings.smtpProbe) return end(rec, 'UNKNOWN', 'domain has mail servers; SMTP probe disabled');

  const catchAllGuess = (): FinderRecord => {
    rec.is_catch_all = true;
    rec.email = guess.address;
    rec.pattern = guess.pattern;
    return end(rec, 'CATCH_ALL', `domain accepts any address (catch-all); ${guess.pattern} is the most common pattern, unverified`);
  };

  let catchAll = v.knownCatchAll(domain);
  if (catchAll === true) return catchAllGuess();
  let next = 0;
  for (let session = 0; session < MAX_SESSIONS && next < list.length; session++) {
    const random = catchAll === undefined ? v.randomAddress(domain) : null;
    const batch = list.slice(next, next + RCPT_PER_SESSION);
    const rcpts = random ? [random, ...batch.map((c) => c.address)] : batch.map((c) => c.address);
    const outcome = await v.probe({
      domain,
      hosts: route.hosts,
      rcpts,
      continueAfter: (a) => rcptVerdict(a.reply) === 'rejected',
      signal: opts.signal,
    });
    if (!outcome.session) return end(rec, 'UNKNOWN', v.unreachableDetail(outcome.skipped));
    for (const answer of outcome.session.rcpts) {
      const verdict = rcptVerdict(answer.reply);
      if (answer.address === random) {
        if (verdict === 'accepted') {
          v.rememberCatchAll(domain, true);
          return catchAllGuess();
        }
        if (verdict !== 'rejected') {
          return end(rec, 'UNKNOWN', `could not test the domain for catch-all: ${replyLine(answer.reply)}`);
        }
        catchAll = false;
        rec.is_catch_all = false;
        v.rememberCatchAll(domain, false);
        continue;
      }
      const cand = list[next];
      next++;
      rec.candidates_tried.push(answer.address);
      if (verdict === 'accepted') {
        rec.email = answer.address;
        rec.pattern = cand.pattern;
        rec.verified = true;
        rec.is_catch_all = catchAll ?? null;
        return end(rec, 'RECEIVING', `SMTP validated (${cand.pattern}, after ${rec.candidates_tried.length} tried)`);
      }
      if (verdict === 'tempfail') return end(rec, 'UNKNOWN', `greylisted or temporarily refused: ${replyLine(answer.reply)}`);
      if (verdict === 'policy') return end(rec, 'UNKNOWN', `server refused the check: ${replyLine(answer.reply)}`);
    }
    const f = outcome.session.failure;
    // Hung up or timed out after some answers: carry on in a fresh session; otherwise give up.
    if (f && !(f.kind === 'closed' && outcome.session.rcpts.length > 0)) {
      const progress = rec.candidates_tried.length ? ` after ${rec.candidates_tried.length} candidates` : '';
      return end(rec, 'UNKNOWN', `SMTP session failed at ${f.stage}${progress}: ${f.message}`);
    }
  }
  if (next < list.length) return end(rec, 'UNKNOWN', `stopped after ${rec.candidates_tried.length} candidates`);
  rec.is_catch_all = catchAll ?? null;
  return end(rec, 'NOT_RECEIVING', `no candidate address was accepted (${rec.candidates_tried.length} tried)`);
}

/**
 * Finds an address with settings from `LookupContext.settings`.
 * @example (await findEmail('Jane Doe example.com', { smtpPort: 2525 })).status
 */
export async function findEmail(
  query: string,
  settings: Record<string, unknown> = {},
  opts: { signal?: AbortSignal } = {},
): Promise<FinderRecord> {
  return findWith(verifierFor(settings), query, opts);
}
