export * from './contract.js';
export { createCore } from './create-core.js';
export * from './ports/index.js';
export * from './views.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging/page-size.js';
