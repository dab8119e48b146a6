import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { smtpSession } from './smtp.ts';
import { startLoopbackSmtp, type LoopbackSmtp } from './testing/loopback.ts';

/** A scripted SMTP peer: `greeting` on connect, then `answer(line)` per command line. */
async function scripted(greeting: string | null, answer: (line: string) => string | null | 'close') {
  const lines: string[] = [];
  const server: Server = createServer((s) => {
    s.setEncoding('utf8');
    s.on('error', () => {});
    if (greeting !== null) s.write(greeting);
    let buf = '';
    s.on('data', (d: string) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        lines.push(line);
        const out = answer(line);
        if (out === 'close') return s.destroy();
        if (out !== null) s.write(out);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, lines, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const base = { host: '127.0.0.1', heloName: 'probe.test', mailFrom: '', timeoutMs: 1500 };
let smtp: LoopbackSmtp;
before(async () => {
  smtp = await startLoopbackSmtp({ mailboxes: ['alice@example.test'], greylistPrefix: 'grey', stallPrefix: 'slow' });
});
after(() => smtp.close());

test('a session against smtp-server: EHLO extensions, RCPT answers, QUIT, never DATA', async () => {
  const r = await smtpSession({ ...base, port: smtp.port, rcpts: ['alice@example.test', 'nobody@example.test', 'grey@example.test'] });
  assert.equal(r.failure, null);
  assert.equal(r.greeted, true);
  assert.ok(r.extensions.includes('PIPELINING'), r.extensions.join(','));
  assert.ok(r.extensions.includes('SMTPUTF8'));
  assert.deepEqual(r.rcpts.map((a) => a.reply.code), [250, 550, 451]);
  assert.equal(r.rcpts[1].reply.enhanced, '5.1.1');
  assert.equal(smtp.dataCommands(), 0);
  assert.deepEqual(smtp.senders.at(-1), '');
  assert.equal(smtp.helos.at(-1), 'probe.test');
});

test('continueAfter stops the RCPT series', async () => {
  const before = smtp.rcpts.length;
  const r = await smtpSession({
    ...base,
    port: smtp.port,
    rcpts: ['nobody@example.test', 'alice@example.test', 'other@example.test'],
    continueAfter: (a) => a.reply.code >= 500,
  });
  assert.deepEqual(r.rcpts.map((a) => a.address), ['nobody@example.test', 'alice@example.test']);
  assert.equal(smtp.rcpts.length - before, 2);
});

test('a stalled RCPT hits the per-step timeout, not a hang', async () => {
  const t = Date.now();
  const r = await smtpSession({ ...base, port: smtp.port, rcpts: ['alice@example.test', 'slow@example.test'] });
  assert.equal(r.rcpts.length, 1);
  assert.equal(r.failure?.kind, 'timeout');
  assert.equal(r.failure?.stage, 'rcpt');
  assert.ok(Date.now() - t < 5000);
});

test('multi-line replies, HELO fallback when EHLO is refused, and lines with bare LF', async () => {
  const peer = await scripted('220-first line\r\n220-second line\n220 ready\r\n', (line) => {
    if (line.startsWith('EHLO')) return '502 5.5.1 EHLO not implemented\r\n';
    if (line.startsWith('HELO')) return '250 hi\r\n';
    if (line.startsWith('MAIL')) return '250-ok\r\n250-still ok\r\n250 2.1.0 sender ok\r\n';
    if (line.startsWith('RCPT')) return '550-5.1.1 The email account that you tried to reach does not exist.\r\n550 5.1.1 Please try again.\r\n';
    if (line === 'QUIT') return '221 bye\r\n';
    return '500 what\r\n';
  });
  const r = await smtpSession({ ...base, port: peer.port, rcpts: ['x@example.test'] });
  assert.equal(r.failure, null);
  assert.deepEqual(r.extensions, []);
  assert.equal(r.rcpts[0].reply.code, 550);
  assert.equal(r.rcpts[0].reply.enhanced, '5.1.1');
  assert.match(r.rcpts[0].reply.text, /does not exist\. 5\.1\.1 Please try again/);
  await new Promise((res) => setTimeout(res, 50));
  assert.deepEqual(peer.lines.slice(0, 4), ['EHLO probe.test', 'HELO probe.test', 'MAIL FROM:<>', 'RCPT TO:<x@example.test>']);
  assert.ok(!peer.lines.includes('DATA'));
  await peer.close();
});

test('failures are reported by stage and kind', async () => {
  const busy = await scripted('421 4.3.2 too busy\r\n', () => null);
  const r1 = await smtpSession({ ...base, port: busy.port, rcpts: ['x@example.test'] });
  assert.equal(r1.greeted, false);
  assert.deepEqual([r1.failure?.stage, r1.failure?.kind, r1.failure?.reply?.code], ['banner', 'reply', 421]);
  await busy.close();

  const silent = await scripted(null, () => null);
  const r2 = await smtpSession({ ...base, port: silent.port, rcpts: ['x@example.test'] });
  assert.deepEqual([r2.failure?.stage, r2.failure?.kind], ['banner', 'timeout']);
  await silent.close();

  const garbage = await scripted('HTTP/1.1 400 Bad Request\r\n', () => null);
  const r3 = await smtpSession({ ...base, port: garbage.port, rcpts: ['x@example.test'] });
  assert.deepEqual([r3.failure?.stage, r3.failure?.kind], ['banner', 'protocol']);
  await garbage.close();

  const hangup = await scripted('220 hi\r\n', (l) => (l.startsWith('EHLO') ? '250 ok\r\n' : 'close'));
  const r4 = await smtpSession({ ...base, port: hangup.port, rcpts: ['x@example.test'] });
  assert.deepEqual([r4.failure?.stage, r4.failure?.kind], ['mail', 'closed']);
  await hangup.close();

  const refused = await smtpSession({ ...base, host: '127.0.0.2', port: smtp.port, rcpts: ['x@example.test'] });
  assert.deepEqual([refused.failure?.stage, refused.failure?.kind, refused.failure?.code], ['connect', 'connect', 'ECONNREFUSED']);

  const noUtf8 = await scripted('220 hi\r\n', (l) => (l.startsWith('EHLO') ? '250-hi\r\n250 SIZE 100\r\n' : '250 ok\r\n'));
  const r5 = await smtpSession({ ...base, port: noUtf8.port, rcpts: ['ü@example.test'], smtputf8: true });
  assert.deepEqual([r5.failure?.stage, r5.failure?.kind], ['ehlo', 'unsupported']);
  await noUtf8.close();
});

test('an oversized reply is a protocol failure', async () => {
  const flood = await scripted('220-' + 'x'.repeat(70 * 1024), () => null);
  const r = await smtpSession({ ...base, port: flood.port, rcpts: ['x@example.test'] });
  assert.deepEqual([r.failure?.stage, r.failure?.kind], ['banner', 'protocol']);
  await flood.close();
});

test('the abort signal ends a session at once', async () => {
  const ac = new AbortController();
  const p = smtpSession({ ...base, timeoutMs: 5000, port: smtp.port, rcpts: ['slow@example.test'], signal: ac.signal });
  setTimeout(() => ac.abort(), 300);
  const t = Date.now();
  const r = await p;
  assert.equal(r.failure?.kind, 'aborted');
  assert.ok(Date.now() - t < 3000);
  const pre = await smtpSession({ ...base, port: smtp.port, rcpts: ['x@example.test'], signal: AbortSignal.abort() });
  assert.equal(pre.failure?.kind, 'aborted');
});
