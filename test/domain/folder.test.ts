import { describe, expect, it } from 'vitest';
import { MAX_FOLDER_DEPTH, assertDepthAllowed, assertNotIntoOwnSubtree } from '../../src/domain/index.js';

/** A parent at depth d has d - 1 ancestors, which is what callers pass (chain.length - 1). */
const underParentAtDepth = (d: number) => d - 1;

describe('assertDepthAllowed', () => {
  it('allows a folder at the deepest level and refuses one below it', () => {
    expect(() => assertDepthAllowed(underParentAtDepth(MAX_FOLDER_DEPTH - 1))).not.toThrow();
    expect(() => assertDepthAllowed(underParentAtDepth(MAX_FOLDER_DEPTH))).toThrow(
      expect.objectContaining({ code: 'bad_request', details: { field: 'parentId' } }),
    );
  });

  it('counts the height of the subtree that moves along', () => {
    expect(() => assertDepthAllowed(underParentAtDepth(MAX_FOLDER_DEPTH - 3), 2)).not.toThrow();
    expect(() => assertDepthAllowed(underParentAtDepth(MAX_FOLDER_DEPTH - 3), 3)).toThrow();
    expect(() => assertDepthAllowed(-1, MAX_FOLDER_DEPTH - 1)).not.toThrow();
    expect(() => assertDepthAllowed(-1, MAX_FOLDER_DEPTH)).toThrow();
  });
});

describe('assertNotIntoOwnSubtree', () => {
  it('refuses the folder itself and any descendant as new parent', () => {
    expect(() => assertNotIntoOwnSubtree('b', ['a', 'b'])).toThrow(expect.objectContaining({ code: 'bad_request' }));
    expect(() => assertNotIntoOwnSubtree('b', ['a', 'b', 'c', 'd'])).toThrow();
  });

  it('allows ancestors, siblings and unrelated folders', () => {
    expect(() => assertNotIntoOwnSubtree('b', ['a'])).not.toThrow();
    expect(() => assertNotIntoOwnSubtree('b', ['a', 'c'])).not.toThrow();
    expect(() => assertNotIntoOwnSubtree('b', [])).not.toThrow();
  });
});
