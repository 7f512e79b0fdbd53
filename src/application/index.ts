export * from './contract.js';
export { createCore } from './create-core.js';
export * from './ports/index.js';
export * from './views.js';
