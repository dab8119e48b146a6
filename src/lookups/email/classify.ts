/**
 * What an SMTP reply to `RCPT TO` says about a mailbox. Pure functions, so the mapping is pinned by
 * tests without a server.
 *
 * 5xx is not always "no such mailbox": servers also answer 5xx when they refuse *us* (blocklisted
 * IP, missing PTR, policy). RFC 3463 enhanced codes tell them apart (5.1.x addressing and 5.2.x
 * mailbox state are about the mailbox; 5.7.x is policy); without one, the wording decides.
 */
import type { SmtpReply } from './smtp.ts';

export type RcptVerdict =
  /** 2xx: the server will take mail for this address. */
  | 'accepted'
  /** 5xx about the mailbox: unknown user, disabled, full. */
  | 'rejected'
  /** 5xx about the client or policy: says nothing about the mailbox. */
  | 'policy'
  /** 4xx: try later; usually greylisting. */
  | 'tempfail';

const POLICY_WORDS =
  /\b(block(?:ed|list)?|black ?list|spam|spamhaus|reputation|policy|denied|not permitted|relay(?:ing)? (?:denied|not)|rbl|dnsbl|ptr|reverse dns|authenticat|too many|rate)/i;
const MAILBOX_WORDS =
  /\b(user unknown|unknown user|no such (?:user|mailbox|recipient|address)|does ?n[o']t exist|doesn't exist|not exist|invalid (?:recipient|mailbox|address)|recipient (?:rejected|unknown|not found)|mailbox (?:unavailable|not found|disabled|full|is full)|address rejected|not found|unrouteable|undeliverable|inactive|disabled|over quota)/i;

/**
 * Verdict of one RCPT reply.
 * @example rcptVerdict({ code: 550, enhanced: '5.1.1', text: '5.1.1 User unknown', lines: [] }) // 'rejected'
 * @example rcptVerdict({ code: 550, enhanced: '5.7.1', text: '5.7.1 Client host blocked', lines: [] }) // 'policy'
 */
export function rcptVerdict(reply: SmtpReply): RcptVerdict {
  if (reply.code >= 200 && reply.code < 300) return 'accepted';
  if (reply.code >= 400 && reply.code < 500) return 'tempfail';
  if (reply.enhanced) {
    const [, subject, detail] = reply.enhanced.split('.');
    if (subject === '1' || subject === '2') return 'rejected';
    if (subject === '7') return 'policy';
    if (subject === '5' && detail !== '0') return 'rejected'; // 5.5.x: the address itself was bad
  }
  if (MAILBOX_WORDS.test(reply.text) && !POLICY_WORDS.test(reply.text)) return 'rejected';
  if (POLICY_WORDS.test(reply.text)) return 'policy';
  // Bare 550/551/553 conventionally mean "no such mailbox"; 552 is "mailbox full". 554 is the
  // generic "transaction failed" that filters use.
  if (reply.code === 550 || reply.code === 551 || reply.code === 552 || reply.code === 553) return 'rejected';
  return 'policy';
}

/**
 * The reply as one short line for status_details.
 * @example replyLine({ code: 451, enhanced: '4.7.1', text: '4.7.1 Greylisted, try later', lines: [] }) // '451 4.7.1 Greylisted, try later'
 */
export function replyLine(reply: SmtpReply): string {
  const text = reply.text.length > 200 ? reply.text.slice(0, 200) + '…' : reply.text;
  return `${reply.code} ${text}`.trim();
}
