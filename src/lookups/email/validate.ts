/**
 * The `/email-validator` record (decision 24): syntax → lists → DNS → SMTP, each stage able to end
 * the check with a status.
 *
 * | status         | when                                                                   |
 * |----------------|------------------------------------------------------------------------|
 * | INVALID_FORMAT | not an address SMTP can deliver to (syntax, FQDN, literal, lengths)    |
 * | DISPOSABLE     | the domain (or a parent) is on a disposable-address list               |
 * | NOT_RECEIVING  | NXDOMAIN, null MX, no MX and no address, or RCPT refused for the mailbox |
 * | RECEIVING      | RCPT accepted and a made-up address of the domain was refused          |
 * | CATCH_ALL      | RCPT accepted, but the domain accepts made-up addresses too            |
 * | UNKNOWN        | DNS failed, no server reachable, greylisting (4xx), policy 5xx, timeout |
 */
import { rcptVerdict, replyLine } from './classify.ts';
import { disposableHit, freeProviderDomains, isRoleAccount } from './lists.ts';
import { didYouMean } from './suggest.ts';
import { checkSyntax } from './syntax.ts';
import { verifierFor, type EmailVerifier } from './verifier.ts';
import { UNCONFIRMED_RESOLVER, UNTRUSTED_RESOLVER, type MailRoute } from './dns.ts';
import type { Static } from '@sinclair/typebox';
import type { emailRecord } from '../../contract/records/email-validator.ts';
import type { SessionResult } from './smtp.ts';

export type EmailRecord = Static<typeof emailRecord>;
export type EmailStatus = EmailRecord['status'];

export interface ValidateOptions {
  signal?: AbortSignal;
}

function baseRecord(query: string): EmailRecord {
  return {
    query,
    status: 'UNKNOWN',
    status_details: '',
    valid_format: false,
    in_blacklist: false,
    valid_dns: false,
    valid_smtp: false,
    email: null,
    domain: null,
    mx: [],
    is_catch_all: null,
    is_role: false,
    is_free: false,
    is_disposable: false,
    did_you_mean: null,
    smtp_code: null,
  };
}

function end(rec: EmailRecord, status: EmailStatus, details: string): EmailRecord {
  rec.status = status;
  rec.status_details = details;
  return rec;
}

/** The no-network part: syntax and lists. Returns the record and, when it can go on, the parse. */
function offlineChecks(query: string) {
  const rec = baseRecord(query);
  const syn = checkSyntax(query);
  if (!syn.ok) return { rec: end(rec, 'INVALID_FORMAT', `invalid format: ${syn.reason}`), syn: null };
  rec.valid_format = true;
  rec.email = syn.address;
  rec.domain = syn.asciiDomain;
  rec.is_role = isRoleAccount(syn.local);
  const hit = disposableHit(syn.asciiDomain);
  rec.is_disposable = rec.in_blacklist = hit !== null;
  // isFreeProvider would look the domain up on the disposable lists a second time.
  rec.is_free = !hit && freeProviderDomains().has(syn.asciiDomain);
  // Typo-squatted domains of big providers sit on the disposable lists: the hint helps there too.
  rec.did_you_mean = didYouMean(syn.address.slice(0, syn.address.lastIndexOf('@')), syn.asciiDomain);
  if (hit) {
    const where = hit.matched === syn.asciiDomain ? hit.matched : `${hit.matched}, parent of ${syn.asciiDomain}`;
    end(rec, 'DISPOSABLE', `disposable address domain (${where}; listed by ${hit.list})`);
  }
  return { rec, syn };
}

/**
 * Status and status_details for a route without mail hosts (the validator's and the finder's).
 * @example routeVerdict({ kind: 'nxdomain' }) // { status: 'NOT_RECEIVING', details: 'domain does not exist (NXDOMAIN)' }
 */
export function routeVerdict(route: Exclude<MailRoute, { kind: 'mx' | 'implicit' }>): { status: EmailStatus; details: string } {
  switch (route.kind) {
    case 'nxdomain':
      return { status: 'NOT_RECEIVING', details: 'domain does not exist (NXDOMAIN)' };
    case 'null_mx':
      return { status: 'NOT_RECEIVING', details: 'domain accepts no mail (null MX, RFC 7505)' };
    case 'no_mail_host':
      return { status: 'NOT_RECEIVING', details: 'domain has no MX and no address record' };
    case 'dns_error':
      return { status: 'UNKNOWN', details: `DNS lookup failed (${route.code})` };
    case 'untrusted_resolver':
      return { status: 'UNKNOWN', details: route.detail };
  }
}

/** Reads a session that did not produce a RCPT answer. */
function sessionFailureDetail(s: SessionResult): string {
  const f = s.failure;
  if (!f) return 'the server ended the session before answering RCPT';
  if (f.kind === 'timeout') return `SMTP timeout: ${f.message}`;
  if (f.kind === 'reply' && f.stage === 'mail') return `server refused the probe sender: ${replyLine(f.reply!)}`;
  if (f.kind === 'reply') return `server refused the session at ${f.stage}: ${replyLine(f.reply!)}`;
  return `SMTP session failed at ${f.stage}: ${f.message}`;
}

/**
 * Whether a verdict is a validation the account pays for: not when the resolver could not be trusted
 * (nothing about the address was learned). The adapters' `units` count these.
 * @example isBilledVerdict({ status: 'UNKNOWN', status_details: 'DNS resolver answers NXDOMAIN for every name (...)' }) // false
 */
export function isBilledVerdict(r: { status: string; status_details: string }): boolean {
  return !(r.status === 'UNKNOWN' && (r.status_details.startsWith(UNTRUSTED_RESOLVER) || r.status_details.startsWith(UNCONFIRMED_RESOLVER)));
}

/**
 * Checks one address with a verifier (settings, caches and limits).
 * @example await validateWith(new EmailVerifier({ smtpPort: 2525 }), 'jane@example.com')
 */
export async function validateWith(v: EmailVerifier, query: string, opts: ValidateOptions = {}): Promise<EmailRecord> {
  const { rec, syn } = offlineChecks(query);
  if (!syn) return rec;
  const route = await v.route(syn.asciiDomain);
  rec.mx = route.kind === 'mx' || route.kind === 'implicit' ? route.hosts.map((h) => h.exchange) : [];
  rec.valid_dns = rec.mx.length > 0;
  if (rec.status === 'DISPOSABLE') {
    // No SMTP session for throwaway domains: the list answer is the verdict.
    rec.status_details += rec.valid_dns ? '; domain has mail servers; not probed' : '; domain has no mail servers';
    return rec;
  }
  if (route.kind !== 'mx' && route.kind !== 'implicit') {
    const { status, details } = routeVerdict(route);
    return end(rec, status, details);
  }
  if (!v.settings.smtpProbe) return end(rec, 'UNKNOWN', 'domain has mail servers; SMTP probe disabled');

  const domain = syn.asciiDomain;
  const known = v.knownCatchAll(domain);
  const random = v.randomAddress(domain);
  const rcpts = known === undefined ? [syn.address, random] : [syn.address];
  const outcome = await v.probe({
    domain,
    hosts: route.hosts,
    rcpts,
    // The made-up address is only worth asking about when the real one was accepted.
    continueAfter: (a) => a.address === syn.address && rcptVerdict(a.reply) === 'accepted',
    smtputf8: syn.smtputf8,
    signal: opts.signal,
  });
  if (!outcome.session) return end(rec, 'UNKNOWN', v.unreachableDetail(outcome.skipped));
  const target = outcome.session.rcpts[0];
  if (!target) return end(rec, 'UNKNOWN', sessionFailureDetail(outcome.session));
  rec.smtp_code = target.reply.code;
  const via = outcome.host ? ` (${outcome.host})` : '';
  switch (rcptVerdict(target.reply)) {
    case 'rejected':
      v.rememberCatchAll(domain, false);
      rec.is_catch_all = false;
      return end(rec, 'NOT_RECEIVING', `mailbox rejected${via}: ${replyLine(target.reply)}`);
    case 'policy':
      return end(rec, 'UNKNOWN', `server refused the check${via}: ${replyLine(target.reply)}`);
    case 'tempfail':
      return end(rec, 'UNKNOWN', `greylisted or temporarily refused${via}: ${replyLine(target.reply)}`);
    case 'accepted':
      break;
  }
  rec.valid_smtp = true;
  let catchAll = known ?? null;
  const probe = outcome.session.rcpts[1];
  if (catchAll === null && probe) {
    const verdict = rcptVerdict(probe.reply);
    if (verdict === 'accepted') catchAll = true;
    else if (verdict === 'rejected') catchAll = false;
    if (catchAll !== null) v.rememberCatchAll(domain, catchAll);
  }
  rec.is_catch_all = catchAll;
  if (catchAll) return end(rec, 'CATCH_ALL', `SMTP accepted${via}, but the domain accepts any address (catch-all)`);
  return end(rec, 'RECEIVING', catchAll === false ? 'SMTP validated' : 'SMTP validated; catch-all check inconclusive');
}

/**
 * Checks one address with settings from `LookupContext.settings` (shared caches per settings).
 * For the maps enrichment `emails_validator_service` and `/email-validator`.
 * @example (await validateEmail('jane@example.com', { smtpPort: 2525 })).status // 'RECEIVING'
 */
export async function validateEmail(
  address: string,
  settings: Record<string, unknown> = {},
  opts: ValidateOptions = {},
): Promise<EmailRecord> {
  return validateWith(verifierFor(settings), address, opts);
}

/**
 * Syntax and lists only, no network: the fields a check without DNS/SMTP can fill. Status is
 * INVALID_FORMAT, DISPOSABLE, or UNKNOWN (deliverability not checked).
 * @example checkEmailOffline('jane@mailinator.com').status // 'DISPOSABLE'
 */
export function checkEmailOffline(query: string): EmailRecord {
  const { rec, syn } = offlineChecks(query);
  if (syn && rec.status !== 'DISPOSABLE') end(rec, 'UNKNOWN', 'format valid; deliverability not checked (offline)');
  return rec;
}
