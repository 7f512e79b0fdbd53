import 'reflect-metadata';

// The embedding entry point: Coffer's core for other hosts, without Koa or a server (see src/boot/embedding.ts).
export { createEmbeddedCore, openEmbeddedCore, type EmbeddedCoreOptions, type OpenedCore } from './boot/embedding.js';
export type { Core } from './application/index.js';
export type { Actor } from './domain/index.js';
