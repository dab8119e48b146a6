#!/usr/bin/env node
// Runs any TypeScript entry file (benchmarks, scripts) through tsx.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
register();
const file = process.argv[2];
process.argv.splice(2, 1);
await import(pathToFileURL(resolve(file)).href);
