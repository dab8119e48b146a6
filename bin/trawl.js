#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npx trawl` works in a fresh checkout without a build step.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
