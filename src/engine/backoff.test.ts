import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Runner } from './runner.ts';

test('a retry\'s backoff is whole milliseconds within its bounds (the retry time goes to an integer column)', () => {
  const runner = new Runner({ backoffBaseMs: 1_000, backoffMaxMs: 120_000 } as ConstructorParameters<typeof Runner>[0]);
  for (let attempt = 1; attempt <= 6; attempt++) {
    for (let k = 0; k < 50; k++) {
      const ms = runner.backoff(attempt);
      const exp = Math.min(120_000, 1_000 * 4 ** (attempt - 1));
      assert.ok(Number.isInteger(ms) && ms >= exp / 2 && ms <= exp, `attempt ${attempt}: ${ms}`);
    }
  }
  assert.equal(runner.backoff(1, 300_000.4), 300_001, 'a server\'s hint, rounded up');
});
