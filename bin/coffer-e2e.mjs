#!/usr/bin/env node
// The `coffer-e2e` command: end-to-end encrypted upload and download (docs/API.md, "The coffer-e2e command").
// It runs its TypeScript through tsx (a dependency), so it needs no build step after `npm ci`.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./coffer-e2e.ts');
process.exitCode = await main(process.argv.slice(2));
