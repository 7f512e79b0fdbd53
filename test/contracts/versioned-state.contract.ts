import { beforeEach, describe, expect, it } from 'vitest';
import type { WriteLock } from '../../src/domain/index.js';
import type { LockStore, PropertyStore } from '../../src/application/ports/index.js';
import { at } from './fixtures.js';

const lock = (token: string, path = '/a'): WriteLock => ({
  token,
  path,
  depth: 'infinity',
  scope: 'exclusive',
  owner: '<D:href xmlns:D="DAV:">me</D:href>',
  timeoutSeconds: 60,
  expiresAt: at(5),
});

/** Every PropertyStore adapter runs this. `make` must return an adapter over empty storage. */
export function propertyStoreContract(name: string, make: () => Promise<PropertyStore>): void {
  describe(name, () => {
    let store: PropertyStore;
    beforeEach(async () => {
      store = await make();
    });

    it('starts empty at version 0 and stores a swap from the version read', async () => {
      expect(await store.read('u1')).toEqual({ version: 0, value: {} });
      const value = { f1: [{ ns: 'urn:x', name: 'colour', value: '<e:b xmlns:e="urn:y">blue</e:b>' }] };
      expect(await store.swap('u1', 0, value)).toBe(true);
      expect(await store.read('u1')).toEqual({ version: 1, value });
      expect(await store.read('u2')).toEqual({ version: 0, value: {} });
    });

    it('refuses a swap from a version that no longer stands, so of two racing changes one wins', async () => {
      const results = await Promise.all([store.swap('u1', 0, { a: [] }), store.swap('u1', 0, { b: [] })]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.swap('u1', 0, { c: [] })).toBe(false);
      expect(await store.swap('u1', 2, { c: [] })).toBe(false);
      expect(await store.swap('u1', 1, { c: [] })).toBe(true);
      expect(await store.read('u1')).toEqual({ version: 2, value: { c: [] } });
    });

    it('hands out copies and forgets a user', async () => {
      await store.swap('u1', 0, { f: [{ ns: '', name: 'n', value: 'v' }] });
      const read = await store.read('u1');
      read.value['f']!.push({ ns: '', name: 'm', value: 'w' });
      expect((await store.read('u1')).value['f']).toHaveLength(1);
      await store.remove('u1');
      expect(await store.read('u1')).toEqual({ version: 0, value: {} });
    });
  });
}

/** Every LockStore adapter runs this. `make` must return an adapter over empty storage. */
export function lockStoreContract(name: string, make: () => Promise<LockStore>): void {
  describe(name, () => {
    let store: LockStore;
    beforeEach(async () => {
      store = await make();
    });

    it('keeps locks as a list, dates as dates, one version per swap', async () => {
      expect(await store.read('u1')).toEqual({ version: 0, value: [] });
      expect(await store.swap('u1', 0, [lock('t1'), lock('t2', '/b')])).toBe(true);
      const read = await store.read('u1');
      expect(read.version).toBe(1);
      expect(Array.isArray(read.value)).toBe(true);
      expect(read.value).toEqual([lock('t1'), lock('t2', '/b')]);
      expect(read.value[0]!.expiresAt).toBeInstanceOf(Date);
    });

    it('lets one of two racing swaps from one version win', async () => {
      await store.swap('u1', 0, [lock('t0')]);
      const results = await Promise.all([store.swap('u1', 1, [lock('t1')]), store.swap('u1', 1, [lock('t2')])]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.read('u1')).value).toHaveLength(1);
      await store.remove('u1');
      expect(await store.read('u1')).toEqual({ version: 0, value: [] });
    });
  });
}
