import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rcptVerdict, replyLine } from './classify.ts';

const r = (code: number, text: string, enhanced: string | null = null) => ({ code, text, enhanced, lines: [text] });

test('RCPT replies map to accepted / rejected / policy / tempfail', () => {
  assert.equal(rcptVerdict(r(250, '2.1.5 Ok', '2.1.5')), 'accepted');
  assert.equal(rcptVerdict(r(251, 'User not local; will forward')), 'accepted');
  assert.equal(rcptVerdict(r(451, '4.7.1 Greylisted', '4.7.1')), 'tempfail');
  assert.equal(rcptVerdict(r(450, 'Mailbox busy')), 'tempfail');
  assert.equal(rcptVerdict(r(550, '5.1.1 User unknown', '5.1.1')), 'rejected');
  assert.equal(rcptVerdict(r(550, '5.2.1 Mailbox disabled', '5.2.1')), 'rejected');
  assert.equal(rcptVerdict(r(552, '5.2.2 Mailbox full', '5.2.2')), 'rejected');
  assert.equal(rcptVerdict(r(550, '5.7.1 Client host blocked', '5.7.1')), 'policy');
  assert.equal(rcptVerdict(r(554, '5.7.1 Service unavailable; listed at Spamhaus', '5.7.1')), 'policy');
  // No enhanced code: the wording decides, then the code.
  assert.equal(rcptVerdict(r(550, 'No such user here')), 'rejected');
  assert.equal(rcptVerdict(r(550, 'Rejected: your IP is on a block list')), 'policy');
  assert.equal(rcptVerdict(r(550, 'Requested action not taken')), 'rejected');
  assert.equal(rcptVerdict(r(553, 'Mailbox name not allowed')), 'rejected');
  assert.equal(rcptVerdict(r(554, 'Transaction failed')), 'policy');
});

test('replyLine keeps code and text, trimmed to a sane length', () => {
  assert.equal(replyLine(r(451, '4.7.1 Greylisted, try later', '4.7.1')), '451 4.7.1 Greylisted, try later');
  assert.ok(replyLine(r(550, 'x'.repeat(500))).length < 220);
});
