import { describe, expect, it } from 'vitest';
import {
  SHARE_TYPES,
  isShareMaximum,
  shareReaches,
  shareState,
  type Share,
  type ShareTarget,
  type ShareType,
} from '../../src/domain/index.js';

const share = (type: ShareType, itemId: string): Share => ({
  id: 's',
  ownerId: 'u',
  type,
  itemId,
  passwordHash: null,
  views: 0,
  downloads: 0,
  expiresAt: null,
  maxViews: null,
  maxDownloads: null,
  createdAt: new Date(0),
});

// Tree: root/{docs/{sub/{deep}}, other}; file f1 in sub, in collection c1; paste p1.
const fileInSub: ShareTarget = { kind: 'file', fileId: 'f1', folderChain: ['root', 'docs', 'sub'], collectionIds: ['c1'] };
const folderDeep: ShareTarget = { kind: 'folder', folderId: 'deep', folderChain: ['root', 'docs', 'sub', 'deep'] };
const collection: ShareTarget = { kind: 'collection', collectionId: 'c1' };
const paste: ShareTarget = { kind: 'paste', pasteId: 'p1' };

describe('shareReaches', () => {
  it('a file share reaches that file only', () => {
    expect(shareReaches(share('file', 'f1'), fileInSub)).toBe(true);
    expect(shareReaches(share('file', 'f2'), fileInSub)).toBe(false);
    for (const target of [folderDeep, collection, paste]) expect(shareReaches(share('file', 'f1'), target)).toBe(false);
  });

  it('a folder share reaches the folder and everything below it, never siblings or ancestors', () => {
    for (const id of ['root', 'docs', 'sub']) {
      expect(shareReaches(share('folder', id), fileInSub), id).toBe(true);
      expect(shareReaches(share('folder', id), folderDeep), id).toBe(true);
    }
    expect(shareReaches(share('folder', 'deep'), folderDeep)).toBe(true);
    expect(shareReaches(share('folder', 'deep'), fileInSub)).toBe(false);
    expect(shareReaches(share('folder', 'other'), fileInSub)).toBe(false);
    expect(shareReaches(share('folder', 'other'), folderDeep)).toBe(false);
    expect(shareReaches(share('folder', 'sub'), { kind: 'folder', folderId: 'other', folderChain: ['root', 'other'] })).toBe(
      false,
    );
    expect(shareReaches(share('folder', 'root'), collection)).toBe(false);
    expect(shareReaches(share('folder', 'root'), paste)).toBe(false);
  });

  it('a folder share does not reach a file at the root', () => {
    const rootFile: ShareTarget = { kind: 'file', fileId: 'f9', folderChain: [], collectionIds: [] };
    expect(shareReaches(share('folder', 'root'), rootFile)).toBe(false);
  });

  it('a collection share reaches the collection and the files in it', () => {
    expect(shareReaches(share('collection', 'c1'), collection)).toBe(true);
    expect(shareReaches(share('collection', 'c1'), fileInSub)).toBe(true);
    expect(shareReaches(share('collection', 'c2'), fileInSub)).toBe(false);
    expect(shareReaches(share('collection', 'c2'), collection)).toBe(false);
    expect(shareReaches(share('collection', 'c1'), folderDeep)).toBe(false);
    expect(shareReaches(share('collection', 'c1'), paste)).toBe(false);
  });

  it('a paste share reaches that paste only', () => {
    expect(shareReaches(share('paste', 'p1'), paste)).toBe(true);
    expect(shareReaches(share('paste', 'p2'), paste)).toBe(false);
    for (const target of [fileInSub, folderDeep, collection]) expect(shareReaches(share('paste', 'p1'), target)).toBe(false);
  });

  it('never lets a share of one type reach an item of another type that happens to have the same id', () => {
    const sameId = 'x';
    const targets: ShareTarget[] = [
      { kind: 'file', fileId: sameId, folderChain: [], collectionIds: [] },
      { kind: 'folder', folderId: sameId, folderChain: [sameId] },
      { kind: 'collection', collectionId: sameId },
      { kind: 'paste', pasteId: sameId },
    ];
    for (const type of SHARE_TYPES) {
      const reached = targets.filter((t) => shareReaches(share(type, sameId), t)).map((t) => t.kind);
      expect(reached, type).toEqual([type]);
    }
  });
});

describe('shareState', () => {
  const at = (ms: number) => new Date(ms);
  const base = share('file', 'f1');

  it('is active without limits, whatever the counts and the time', () => {
    expect(shareState({ ...base, views: 1e6, downloads: 1e6 }, at(8.64e15))).toBe('active');
  });

  it('is expired from the instant of expiresAt on, before any maximum', () => {
    const expiring = { ...base, expiresAt: at(1000), maxViews: 1, views: 1 };
    expect(shareState({ ...expiring, views: 0 }, at(999))).toBe('active');
    expect(shareState(expiring, at(999))).toBe('exhausted');
    expect(shareState(expiring, at(1000))).toBe('expired');
  });

  it('is exhausted once either counter reaches its maximum', () => {
    expect(shareState({ ...base, maxViews: 3, views: 2 }, at(0))).toBe('active');
    expect(shareState({ ...base, maxViews: 3, views: 3 }, at(0))).toBe('exhausted');
    expect(shareState({ ...base, maxDownloads: 1, downloads: 0, views: 9 }, at(0))).toBe('active');
    expect(shareState({ ...base, maxDownloads: 1, downloads: 1 }, at(0))).toBe('exhausted');
  });

  it('takes whole maxima of at least one only', () => {
    for (const ok of [1, 2, Number.MAX_SAFE_INTEGER]) expect(isShareMaximum(ok)).toBe(true);
    for (const bad of [0, -1, 1.5, NaN, Infinity, 2 ** 53, '3', null]) expect(isShareMaximum(bad)).toBe(false);
  });
});
