import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { RESERVE_HOLDING, admit, capConnections, type Refusal } from './connection-cap.ts';

/** A server that only emits 'connection', and sockets that only know their address and close. */
function fakeServer() {
  const server = new EventEmitter() as unknown as Server;
  const connect = (remoteAddress: string) => {
    const s = Object.assign(new EventEmitter(), { remoteAddress, destroyed: false, destroy() { this.destroyed = true; } });
    server.emit('connection', s);
    if (!s.destroyed) return { close: () => s.emit('close'), refused: false };
    return { close: () => {}, refused: true };
  };
  return { server, connect };
}

const LIMITS = { perAddress: 50, total: 300, reserve: 40, headersTimeoutMs: 1, requestTimeoutMs: 1, keepAliveTimeoutMs: 1, backlog: 1 };

test('admit: the per-client cap, the total, and the reserve only for clients holding few', () => {
  assert.equal(admit(LIMITS, 49, 0), null);
  assert.equal(admit(LIMITS, 50, 0), 'address');
  assert.equal(admit(LIMITS, 10, 259), null);
  assert.equal(admit(LIMITS, 10, 260), 'reserve');
  assert.equal(admit(LIMITS, RESERVE_HOLDING - 1, 260), null);
  assert.equal(admit(LIMITS, 0, 299), null);
  assert.equal(admit(LIMITS, 0, 300), 'total');
  assert.equal(admit({ perAddress: 0, total: 0, reserve: 0 }, 1e6, 1e6), null);
});

test('many clients under the per-client cap fill the shared part; a new client, and an IPv6 /64, are counted as the rules say', () => {
  const { server, connect } = fakeServer();
  const why: Refusal[] = [];
  const cap = capConnections(server, LIMITS, (w) => why.push(w));
  // 10 addresses × 40 (each under perAddress 50) in turn: 260 get in, then the reserve lets each later
  // address in for RESERVE_HOLDING only (the three that came after the shared part filled).
  const held = [];
  for (let a = 0; a < 10; a++) for (let i = 0; i < 40; i++) held.push(connect(`10.0.0.${a}`));
  assert.equal(cap.total(), 260 + 3 * RESERVE_HOLDING);
  assert.equal(why.filter((w) => w === 'reserve').length, 400 - cap.total());
  // A new client still gets in, up to RESERVE_HOLDING connections, until the total.
  for (let i = 0; i < RESERVE_HOLDING; i++) assert.equal(connect('10.9.9.9').refused, false);
  assert.equal(connect('10.9.9.9').refused, true);
  // One /64 is one client: its addresses share the per-client cap.
  const { server: s2, connect: c2 } = fakeServer();
  const cap2 = capConnections(s2, { ...LIMITS, total: 0 });
  for (let i = 0; i < 60; i++) c2(`2001:db8:1:2::${(i + 1).toString(16)}`);
  assert.equal(cap2.open('2001:db8:1:2::ffff'), 50);
  assert.equal(c2('2001:db8:1:3::1').refused, false);
  // Closing frees the slots.
  for (const h of held) h.close();
  assert.equal(cap.total(), RESERVE_HOLDING);
  assert.equal(cap.open('10.0.0.1'), 0);
});
