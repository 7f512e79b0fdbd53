import 'reflect-metadata';
import { afterAll } from 'vitest';
import { removeTempDirs } from './support/temp.js';

// Tests send traffic to loopback only: the start-up probe for a downloadable mongod asks a closed local port,
// never the real download host, unless a test (or the person running them) points it elsewhere.
process.env.MONGOMS_DOWNLOAD_MIRROR ??= 'http://127.0.0.1:9';

// Registered before any hook of the test file, so it runs after them all: servers are closed by then.
afterAll(removeTempDirs);
