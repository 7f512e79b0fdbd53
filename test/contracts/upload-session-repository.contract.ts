import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_PARTS, type UploadSession, type UploadSessionRepository } from '../../src/application/ports/index.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;

function session(id: string, overrides: Partial<UploadSession> = {}): UploadSession {
  return {
    id,
    ownerId: 'u1',
    uploaderTokenId: null,
    length: 100,
    offset: 0,
    parts: [],
    folderId: null,
    name: 'big.bin',
    filename: 'big.bin',
    mime: 'application/octet-stream',
    share: null,
    createdAt: T0,
    expiresAt: at(HOUR),
    ...overrides,
  };
}

/** Every UploadSessionRepository adapter runs this. `make` must return an adapter over empty storage. */
export function uploadSessionRepositoryContract(name: string, make: () => Promise<UploadSessionRepository>): void {
  describe(name, () => {
    let repo: UploadSessionRepository;
    beforeEach(async () => {
      repo = await make();
    });

    it('stores and reads a session as given, share options and dates included', async () => {
      const share = { passwordHash: 'h', expiresAt: at(5 * HOUR), maxViews: 3 };
      const stored = session('s1', { share, uploaderTokenId: 't1', folderId: 'f1' });
      await repo.insert(stored);
      expect(await repo.findById('s1')).toEqual(stored);
      expect(await repo.findById('missing')).toBeNull();
      await expect(repo.insert(session('s1'))).rejects.toThrow();
    });

    it('keeps an end-to-end encrypted upload\'s sealed metadata', async () => {
      const stored = session('s2', { name: 'encrypted-s2', filename: '', encryptedMetadata: 'c2VhbGVk' });
      await repo.insert(stored);
      expect(await repo.findById('s2')).toEqual(stored);
    });

    it('hands out copies: changing what it returned changes nothing stored', async () => {
      await repo.insert(session('s1'));
      const read = (await repo.findById('s1'))!;
      read.parts.push({ key: 'k', size: 1 });
      read.expiresAt.setTime(0);
      expect(await repo.findById('s1')).toEqual(session('s1'));
    });

    it('appends a part only at the expected offset, within the length, while not expired', async () => {
      await repo.insert(session('s1'));
      const renewed = at(2 * HOUR);
      const first = await repo.append('s1', 0, { key: 'a', size: 40 }, renewed, T0);
      expect(first).toMatchObject({ offset: 40, parts: [{ key: 'a', size: 40 }], expiresAt: renewed });
      expect(await repo.append('s1', 0, { key: 'b', size: 10 }, renewed, T0)).toBeNull();
      expect(await repo.append('s1', 40, { key: 'c', size: 61 }, renewed, T0)).toBeNull();
      expect(await repo.append('s1', 40, { key: 'd', size: 10 }, renewed, at(2 * HOUR))).toBeNull();
      expect(await repo.append('missing', 0, { key: 'e', size: 1 }, renewed, T0)).toBeNull();
      const last = await repo.append('s1', 40, { key: 'f', size: 60 }, renewed, T0);
      expect(last).toMatchObject({ offset: 100, parts: [{ key: 'a', size: 40 }, { key: 'f', size: 60 }] });
      expect(await repo.findById('s1')).toEqual(last);
    });

    it('refuses a part beyond MAX_UPLOAD_PARTS', async () => {
      const parts = Array.from({ length: MAX_UPLOAD_PARTS - 1 }, (_, i) => ({ key: `p${i}`, size: 1 }));
      await repo.insert(session('s1', { length: MAX_UPLOAD_PARTS + 5, offset: parts.length, parts }));
      const last = await repo.append('s1', parts.length, { key: 'last', size: 1 }, at(HOUR), T0);
      expect(last?.parts).toHaveLength(MAX_UPLOAD_PARTS);
      expect(await repo.append('s1', MAX_UPLOAD_PARTS, { key: 'over', size: 1 }, at(HOUR), T0)).toBeNull();
    });

    it('lets exactly one of many concurrent appends at one offset land', async () => {
      await repo.insert(session('s1'));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => repo.append('s1', 0, { key: `k${i}`, size: 10 }, at(HOUR), T0)),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect((await repo.findById('s1'))!.parts).toHaveLength(1);
    });

    it('takes a session once; takeExpired only once it has expired', async () => {
      await repo.insert(session('s1'));
      await repo.insert(session('s2'));
      expect(await repo.takeExpired('s1', at(HOUR - 1))).toBeNull();
      expect(await repo.takeExpired('s1', at(HOUR))).toMatchObject({ id: 's1' });
      expect(await repo.takeExpired('s1', at(HOUR))).toBeNull();
      const taken = await Promise.all([repo.take('s2'), repo.take('s2')]);
      expect(taken.filter((s) => s !== null)).toHaveLength(1);
      expect(await repo.findById('s2')).toBeNull();
    });

    it("lists an owner's sessions", async () => {
      await repo.insert(session('a1'));
      await repo.insert(session('a2'));
      await repo.insert(session('b1', { ownerId: 'u2' }));
      expect((await repo.idsByOwner('u1')).sort()).toEqual(['a1', 'a2']);
      expect(await repo.idsByOwner('nobody')).toEqual([]);
    });

    it('lists the expired sessions, at most limit', async () => {
      await repo.insert(session('old1', { expiresAt: at(1) }));
      await repo.insert(session('old2', { expiresAt: at(2) }));
      await repo.insert(session('live', { expiresAt: at(HOUR) }));
      expect((await repo.expiredIds(at(10), 10)).sort()).toEqual(['old1', 'old2']);
      expect(await repo.expiredIds(at(10), 1)).toHaveLength(1);
      expect(await repo.expiredIds(T0, 10)).toEqual([]);
    });

    it('tells which blob keys are parts of a session', async () => {
      await repo.insert(session('s1'));
      await repo.append('s1', 0, { key: 'p1', size: 10 }, at(HOUR), T0);
      await repo.append('s1', 10, { key: 'p2', size: 10 }, at(HOUR), T0);
      expect(await repo.referencedPartKeys(['p1', 'p2', 'other'])).toEqual(new Set(['p1', 'p2']));
      expect(await repo.referencedPartKeys([])).toEqual(new Set());
      expect((await repo.findByPart('p2'))?.id).toBe('s1');
      expect(await repo.findByPart('other')).toBeNull();
      await repo.take('s1');
      expect(await repo.referencedPartKeys(['p1'])).toEqual(new Set());
      expect(await repo.findByPart('p2')).toBeNull();
    });

    it('cuts back to the first parts only while its parts are exactly those seen', async () => {
      await repo.insert(session('s1'));
      await repo.append('s1', 0, { key: 'p1', size: 10 }, at(HOUR), T0);
      await repo.append('s1', 10, { key: 'p2', size: 20 }, at(HOUR), T0);
      const seen = (await repo.append('s1', 30, { key: 'p3', size: 5 }, at(HOUR), T0))!.parts;
      const cut = await repo.cutBack('s1', seen, 1);
      expect(cut).toMatchObject({ offset: 10, parts: [{ key: 'p1', size: 10 }], expiresAt: at(HOUR) });
      expect(await repo.findById('s1')).toEqual(cut);
      // A second check that saw the old parts acts on nothing, even once the upload has grown back past them.
      expect(await repo.cutBack('s1', seen, 0)).toBeNull();
      await repo.append('s1', 10, { key: 'p4', size: 20 }, at(HOUR), T0);
      await repo.append('s1', 30, { key: 'p5', size: 5 }, at(HOUR), T0);
      expect(await repo.cutBack('s1', seen, 0)).toBeNull();
      expect(await repo.cutBack('s1', seen.slice(0, 2), 0)).toBeNull();
      expect((await repo.findById('s1'))!.offset).toBe(35);
      expect(await repo.cutBack('missing', seen, 0)).toBeNull();
      await expect(repo.cutBack('s1', seen, 3)).rejects.toThrow(RangeError);
    });

    it('lets exactly one of concurrent cuts of the same parts land', async () => {
      await repo.insert(session('s1'));
      await repo.append('s1', 0, { key: 'p1', size: 10 }, at(HOUR), T0);
      const seen = (await repo.append('s1', 10, { key: 'p2', size: 10 }, at(HOUR), T0))!.parts;
      const results = await Promise.all([repo.cutBack('s1', seen, 1), repo.cutBack('s1', seen, 0)]);
      expect(results.filter((result) => result !== null)).toHaveLength(1);
    });
  });
}
