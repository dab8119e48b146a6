// A bench that starts a server reads its address from the "trawl listening" line (bench/lib.ts
// listening); where that line cannot come it fails saying why, never waits for ever (session 26: an
// arm with LOG_LEVEL=warn held the bench lock 20 minutes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { listening } from '../bench/lib.ts';

const child = (script: string) => spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });

test('listening: the address of the announced line, past lines that are not it', async () => {
  const c = child(`console.log('starting'); console.log(JSON.stringify({ msg: 'trawl listening', url: 'http://127.0.0.1:5' })); setTimeout(() => {}, 200);`);
  assert.equal(await listening(c, { env: { LOG_LEVEL: 'info' } }), 'http://127.0.0.1:5');
});

test('listening: a level that hides info is refused at once, saying so', async () => {
  const c = child('setTimeout(() => {}, 60000)');
  await assert.rejects(listening(c, { env: { LOG_LEVEL: 'warn' } }), /LOG_LEVEL=warn hides the info-level "trawl listening" line/);
});

test('listening: a server that exits first, or stays silent, fails with the reason', async () => {
  await assert.rejects(listening(child('process.exit(3)')), /exited \(3\) before its "trawl listening" line/);
  const silent = child('setTimeout(() => {}, 60000)');
  await assert.rejects(listening(silent, { msg: 'floor listening', timeoutMs: 300 }), /no "floor listening" line within 0.3 s/);
});
