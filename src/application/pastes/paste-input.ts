import { badRequest, pasteSize } from '../../domain/index.js';

/** Content arrives from JSON, so its type is checked here before its size is measured. */
export function contentSize(content: unknown): number {
  if (typeof content !== 'string') throw badRequest('content must be a string', { field: 'content' });
  return pasteSize(content);
}
