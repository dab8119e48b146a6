#!/usr/bin/env node
// Keeps package-lock.json usable by `npm ci` on machines whose registry lacks some platform-only
// optional packages (here: msgpackr-extract's darwin/win32/arm builds, which BullMQ pulls in).
// npm then leaves them out of the lock and `npm ci` refuses the lock as "out of sync". This adds a
// lock entry for each missing optional platform package, restricted to its os/cpu, so npm skips it
// on other platforms without fetching it. Idempotent; run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pk = lock.packages;
const platform = /-(darwin|linux|win32|freebsd|android)-(arm64|x64|arm|ia32)(-gnu|-musl|-msvc)?$/;
let added = 0;
for (const [path, meta] of Object.entries(pk)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const m = dep.match(platform);
    if (!m) continue;
    const at = `node_modules/${dep}`;
    const nested = `${path}/node_modules/${dep}`;
    if (pk[at] || pk[nested]) continue;
    const version = String(range).replace(/^[\^~=]/, '');
    const base = dep.split('/').pop();
    pk[at] = { version, resolved: `https://registry.npmjs.org/${dep}/-/${base}-${version}.tgz`, cpu: [m[2]], license: 'MIT', optional: true, os: [m[1]] };
    added++;
  }
}
if (added) {
  lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`lock-platforms: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
