/**
 * One raw HTTP/1.1 exchange over a socket, for requests fetch will not send (no Host, over-long heads).
 */
import net from 'node:net';

/** One raw HTTP exchange, for what fetch will not send (no Host, over-long heads); the server is expected to close. */
export function rawExchange(base: string, text: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port), u.hostname, () => s.write(text));
    let buf = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => { buf += d; });
    // A server that stops reading an over-long head may reset the connection after answering.
    s.on('error', () => {});
    s.on('close', () => {
      const [head, ...rest] = buf.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: rest.join('\r\n\r\n') });
    });
  });
}
