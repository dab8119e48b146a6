import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { FINISHED_ROUND_MS, WebhookDispatcher } from './webhook-dispatcher.ts';
import { settingsFromEnv } from '../config/settings.ts';
import type { AppContext } from './context.ts';
import type { RequestRow } from '../store/contract.ts';

/** A dispatcher whose store counts its delivery rounds (none due), its poll an hour away. */
function counted() {
  let rounds = 0;
  const events = new EventEmitter();
  const ctx = {
    settings: settingsFromEnv({}), events, now: () => Date.now(), log: { warn() {}, info() {} },
    store: { async claimDueWebhooks() { rounds++; return []; } },
  } as unknown as AppContext;
  return { d: new WebhookDispatcher(ctx, 3_600_000), events, rounds: () => rounds };
}

const ended = { id: 'r1' } as RequestRow;
const past = () => new Promise((r) => setTimeout(r, FINISHED_ROUND_MS * 3));

test('an end the store says made no delivery starts no round; one it says nothing of, or that made some, does', async () => {
  const { d, events, rounds } = counted();
  d.start();
  try {
    events.emit('finished', ended, undefined, false);
    await past();
    assert.equal(rounds(), 0, 'nothing to send');
    events.emit('finished', ended, undefined, undefined);
    await past();
    assert.equal(rounds(), 1, 'not known: a round');
    events.emit('finished', ended, undefined, true);
    events.emit('finished', ended, undefined, false);
    await past();
    assert.equal(rounds(), 2, 'one made: a round');
  } finally {
    await d.stop();
  }
});
