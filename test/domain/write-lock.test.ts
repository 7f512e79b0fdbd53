import { describe, expect, it } from 'vitest';
import { conflicting, covers, type WriteLock } from '../../src/domain/index.js';

const lock = (path: string, depth: WriteLock['depth'], scope: WriteLock['scope']): WriteLock => ({
  token: `t${path}${depth}${scope}`,
  path,
  depth,
  scope,
  owner: '',
  timeoutSeconds: 60,
  expiresAt: new Date(0),
});

describe('write locks', () => {
  it('cover their own path, and below it only at depth infinity', () => {
    expect(covers(lock('/a', 0, 'exclusive'), '/a')).toBe(true);
    expect(covers(lock('/a', 0, 'exclusive'), '/a/b')).toBe(false);
    expect(covers(lock('/a', 'infinity', 'exclusive'), '/a/b/c')).toBe(true);
    expect(covers(lock('/a', 'infinity', 'exclusive'), '/ab')).toBe(false);
    expect(covers(lock('/', 'infinity', 'exclusive'), '/x')).toBe(true);
  });

  it('conflict when either is exclusive and they overlap; shared locks stand together', () => {
    const held = [lock('/a', 'infinity', 'shared')];
    expect(conflicting(held, '/a/b', 0, 'shared')).toHaveLength(0);
    expect(conflicting(held, '/a/b', 0, 'exclusive')).toHaveLength(1);
    expect(conflicting(held, '/c', 0, 'exclusive')).toHaveLength(0);
    // A new depth-infinity lock above an existing one overlaps it.
    expect(conflicting([lock('/a/b', 0, 'exclusive')], '/a', 'infinity', 'shared')).toHaveLength(1);
    expect(conflicting([lock('/a/b', 0, 'exclusive')], '/a', 0, 'exclusive')).toHaveLength(0);
  });
});
