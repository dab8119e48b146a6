/**
 * One SMTP probe session over a raw socket: banner, EHLO (HELO if EHLO is refused), MAIL FROM, a
 * series of RCPT TO, then QUIT. DATA is never sent, so no message is ever delivered.
 *
 * Every step has its own deadline, replies may span several lines (`250-…` then `250 …`), and the
 * caller decides after each RCPT reply whether to send the next one.
 */
import { connect, type Socket } from 'node:net';

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code ('5.1.1') when the server gives one. */
  enhanced: string | null;
  /** Text of all lines, joined by spaces, without codes. */
  text: string;
  /** Text of each line, without codes (EHLO lists one extension per line after the first). */
  lines: string[];
}

export type SmtpStage = 'connect' | 'banner' | 'ehlo' | 'mail' | 'rcpt';

export interface SessionFailure {
  stage: SmtpStage;
  /** connect: no TCP session; timeout: a step outlived smtpTimeoutMs; closed: the peer hung up;
   *  reply: an unexpected reply code; protocol: unreadable replies; unsupported: a needed extension
   *  is missing; aborted: the caller's signal. */
  kind: 'connect' | 'timeout' | 'closed' | 'reply' | 'protocol' | 'unsupported' | 'aborted';
  message: string;
  /** Socket error code for connect failures (ECONNREFUSED, EHOSTUNREACH, ETIMEDOUT…). */
  code?: string;
  reply?: SmtpReply;
}

export interface RcptAnswer {
  address: string;
  reply: SmtpReply;
}

export interface SessionResult {
  /** IP (or host) connected to. */
  host: string;
  port: number;
  /** The server greeted us with 220: the mail host is reachable. */
  greeted: boolean;
  failure: SessionFailure | null;
  /** EHLO keywords, upper-case ('PIPELINING', 'SMTPUTF8', 'SIZE'). */
  extensions: string[];
  rcpts: RcptAnswer[];
}

export interface SessionOptions {
  host: string;
  port: number;
  heloName: string;
  /** Envelope sender; '' for the null sender. */
  mailFrom: string;
  /** Addresses in RCPT TO form (quoted local part if needed, ASCII domain). */
  rcpts: string[];
  /** Deadline of each step, connect included. */
  timeoutMs: number;
  /** After each RCPT reply; false stops before the next RCPT. Default: go on. */
  continueAfter?: (answer: RcptAnswer) => boolean;
  /** Some recipient has a UTF-8 local part: require the SMTPUTF8 extension. */
  smtputf8?: boolean;
  signal?: AbortSignal;
}

/** Replies longer than this are not SMTP. */
const MAX_REPLY_BYTES = 64 * 1024;
const QUIT_GRACE_MS = 1000;
const ENHANCED = /^([245])\.(\d{1,3})\.(\d{1,3})\b/;

class Failure extends Error {
  constructor(readonly info: SessionFailure) {
    super(info.message);
  }
}

function parseReply(lines: string[]): SmtpReply {
  const code = Number(lines[0].slice(0, 3));
  const texts = lines.map((l) => l.slice(4).trim());
  const enh = ENHANCED.exec(texts[texts.length - 1]) ?? ENHANCED.exec(texts[0]);
  return { code, enhanced: enh ? `${enh[1]}.${enh[2]}.${enh[3]}` : null, text: texts.join(' ').trim(), lines: texts };
}

/** Reads complete (possibly multi-line) replies from the socket, one per `next()`. */
class ReplyReader {
  private buf = '';
  private lines: string[] = [];
  private replies: SmtpReply[] = [];
  private waiter: { resolve: (r: SmtpReply) => void; reject: (e: Error) => void } | null = null;
  private error: Error | null = null;

  push(chunk: string): void {
    this.buf += chunk;
    if (this.buf.length > MAX_REPLY_BYTES) return this.fail(new Error('reply too long'));
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, nl).replace(/\r$/, '');
      this.buf = this.buf.slice(nl + 1);
      const m = /^(\d{3})([ -]|$)/.exec(line);
      if (!m) return this.fail(new Error(`not an SMTP reply line: ${JSON.stringify(line.slice(0, 80))}`));
      this.lines.push(line);
      if (m[2] !== '-') {
        this.replies.push(parseReply(this.lines));
        this.lines = [];
      }
    }
    this.deliver();
  }

  fail(e: Error): void {
    if (!this.error) this.error = e;
    this.deliver();
  }

  private deliver(): void {
    if (!this.waiter) return;
    const w = this.waiter;
    const r = this.replies.shift();
    if (r) {
      this.waiter = null;
      w.resolve(r);
    } else if (this.error) {
      this.waiter = null;
      w.reject(this.error);
    }
  }

  next(): Promise<SmtpReply> {
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.deliver();
    });
  }
}

/**
 * Runs one probe session; never throws, never leaves a socket open.
 * @example
 *   const r = await smtpSession({ host: '127.0.0.1', port: 2525, heloName: 'probe.example', mailFrom: '',
 *     rcpts: ['alice@example.test'], timeoutMs: 5000 });
 *   r.rcpts[0].reply.code // 250
 */
export async function smtpSession(opts: SessionOptions): Promise<SessionResult> {
  const result: SessionResult = { host: opts.host, port: opts.port, greeted: false, failure: null, extensions: [], rcpts: [] };
  if (opts.signal?.aborted) {
    result.failure = { stage: 'connect', kind: 'aborted', message: 'aborted before connecting' };
    return result;
  }
  const reader = new ReplyReader();
  let socket: Socket | null = null;
  let stage: SmtpStage = 'connect';
  let rejectStep: ((e: Failure) => void) | null = null;

  /** Races a step against its deadline and the abort signal (the socket's end rejects `work`). */
  const step = <T>(s: SmtpStage, work: Promise<T>): Promise<T> => {
    stage = s;
    let timer: NodeJS.Timeout | undefined;
    return new Promise<T>((resolve, reject) => {
      rejectStep = reject;
      timer = setTimeout(
        () => reject(new Failure({ stage: s, kind: 'timeout', message: `no answer at ${s} within ${opts.timeoutMs} ms` })),
        opts.timeoutMs,
      );
      work.then(resolve, reject);
    }).finally(() => {
      clearTimeout(timer);
      rejectStep = null;
    });
  };

  const onAbort = (): void => rejectStep?.(new Failure({ stage, kind: 'aborted', message: `aborted at ${stage}` }));
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const read = async (s: SmtpStage): Promise<SmtpReply> => {
    try {
      return await step(s, reader.next());
    } catch (e) {
      if (e instanceof Failure) throw e;
      const msg = (e as Error).message;
      const closed = msg === 'connection closed';
      throw new Failure({
        stage: s,
        kind: closed ? 'closed' : 'protocol',
        message: closed ? `server closed the connection at ${s}` : msg,
      });
    }
  };

  const command = (s: SmtpStage, line: string): Promise<SmtpReply> => {
    if (/[\r\n]/.test(line)) {
      throw new Failure({ stage: s, kind: 'protocol', message: 'refusing to send a command containing a line break' });
    }
    socket!.write(line + '\r\n');
    return read(s);
  };

  const expect = (s: SmtpStage, reply: SmtpReply, ok: (code: number) => boolean): void => {
    if (!ok(reply.code)) {
      throw new Failure({ stage: s, kind: 'reply', message: `${s} refused: ${reply.code} ${reply.text}`.trim(), reply });
    }
  };

  try {
    socket = await step(
      'connect',
      new Promise<Socket>((resolve, reject) => {
        const s = connect({ host: opts.host, port: opts.port });
        socket = s;
        s.once('connect', () => resolve(s));
        s.once('error', (e: NodeJS.ErrnoException) =>
          reject(
            new Failure({
              stage: 'connect',
              kind: 'connect',
              code: e.code,
              message: `cannot connect to ${opts.host}:${opts.port}: ${e.code ?? e.message}`,
            }),
          ),
        );
      }),
    ).catch((e: unknown) => {
      if (e instanceof Failure && e.info.kind === 'timeout') {
        e.info.kind = 'connect';
        e.info.code = 'ETIMEDOUT';
        e.info.message = `cannot connect to ${opts.host}:${opts.port}: no answer within ${opts.timeoutMs} ms`;
      }
      throw e;
    });
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (d: string) => reader.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => reader.fail(new Error(`socket error: ${e.code ?? e.message}`)));
    socket.on('close', () => reader.fail(new Error('connection closed')));

    const banner = await read('banner');
    expect('banner', banner, (c) => c === 220);
    result.greeted = true;

    let hello = await command('ehlo', `EHLO ${opts.heloName}`);
    if (hello.code >= 500 && hello.code <= 504) {
      // A server without ESMTP: plain HELO, no extensions.
      hello = await command('ehlo', `HELO ${opts.heloName}`);
      expect('ehlo', hello, (c) => c === 250);
    } else {
      expect('ehlo', hello, (c) => c === 250);
      result.extensions = hello.lines.slice(1).map((l) => l.split(/\s+/)[0].toUpperCase());
    }
    if (opts.smtputf8 && !result.extensions.includes('SMTPUTF8')) {
      throw new Failure({
        stage: 'ehlo',
        kind: 'unsupported',
        message: 'the server does not offer SMTPUTF8, needed for a UTF-8 local part',
      });
    }

    const mail = await command('mail', `MAIL FROM:<${opts.mailFrom}>${opts.smtputf8 ? ' SMTPUTF8' : ''}`);
    expect('mail', mail, (c) => c === 250);

    for (const address of opts.rcpts) {
      const reply = await command('rcpt', `RCPT TO:<${address}>`);
      const answer = { address, reply };
      result.rcpts.push(answer);
      if (reply.code === 421) break; // the server is closing the session
      if (opts.continueAfter && !opts.continueAfter(answer)) break;
    }
  } catch (e) {
    result.failure = e instanceof Failure ? e.info : { stage, kind: 'protocol', message: (e as Error)?.message ?? String(e) };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    const f = result.failure;
    if (socket) quit(socket, result.greeted && (f === null || f.kind === 'reply' || f.kind === 'unsupported'));
  }
  return result;
}

/** Says goodbye politely in the background (only while the dialogue is in step) and always frees the socket. */
function quit(socket: Socket, polite: boolean): void {
  if (socket.destroyed) return;
  if (!polite) {
    socket.destroy();
    return;
  }
  const t = setTimeout(() => socket.destroy(), QUIT_GRACE_MS);
  t.unref();
  socket.removeAllListeners('data');
  socket.on('data', () => socket.end());
  socket.on('close', () => clearTimeout(t));
  socket.on('error', () => socket.destroy());
  socket.write('QUIT\r\n');
}
