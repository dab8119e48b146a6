import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settingsFromEnv } from '../config/settings.ts';
import { createLogger } from '../ops/log.ts';
import { startService } from './start.ts';

test('PORT=0: the links the service writes name the port the OS picked; BASE_URL still wins', async () => {
  for (const [env, expect] of [[{}, 'bound'], [{ BASE_URL: 'https://api.example.com/' }, 'https://api.example.com']] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-svc-'));
    const settings = settingsFromEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, NO_WORKERS: '1', ...env });
    const svc = await startService({ settings, env: { DATA_DIR: dir }, log: createLogger('silent') });
    try {
      const address = await svc.listen();
      assert.match(address, /^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      assert.equal(svc.ctx.settings.baseUrl, expect === 'bound' ? address : expect);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
