import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResumableUploadState } from '../../src/application/index.js';
import { bytes, failure, makeCore, readAll, signUp, type TestCoreOptions } from '../support/core.js';
import { instancesOn } from '../support/instances.js';

const KIB = 1024;
const HOUR = 3_600_000;

async function setup(options: TestCoreOptions = {}) {
  const ctx = makeCore(options);
  const alice = await signUp(ctx, 'alice');
  const create = (length: number, extra: { filename?: string; share?: { password?: string } | null } = {}) =>
    ctx.core.createUpload.execute({
      actor: alice.actor,
      length,
      folderId: null,
      name: null,
      filename: extra.filename ?? 'big.bin',
      mime: 'application/octet-stream',
      share: extra.share ?? null,
    });
  const append = (id: string, offset: number, data: Uint8Array | AsyncIterable<Uint8Array>) =>
    ctx.core.appendUpload.execute({
      actor: alice.actor,
      id,
      offset,
      content: data instanceof Uint8Array ? bytes(data) : data,
    });
  const usage = () => ctx.ports.usage.get(alice.userId);
  return { ...ctx, alice, create, append, usage };
}

const filled = (size: number, seed = 1) => Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed) % 251);

describe('resumable uploads (use cases, memory)', () => {
  it('joins appends into one file with the bytes in order, counted once', async () => {
    const t = await setup();
    const data = filled(300 * KIB);
    const started = await t.create(data.length);
    expect(started).toMatchObject({ offset: 0, length: data.length, fileId: null });
    expect(await t.usage()).toMatchObject({ files: 1, storage: 0 });
    await t.append(started.id, 0, data.subarray(0, 100 * KIB));
    const middle = await t.append(started.id, 100 * KIB, data.subarray(100 * KIB, 250 * KIB));
    expect(middle).toMatchObject({ offset: 250 * KIB, fileId: null });
    expect(await t.usage()).toMatchObject({ files: 1, storage: 250 * KIB });
    const done = await t.append(started.id, 250 * KIB, data.subarray(250 * KIB));
    expect(done).toMatchObject({ offset: data.length, fileId: started.id, expiresAt: null });

    const content = await t.core.openFileContent.execute({ access: { actor: t.alice.actor, share: null }, id: started.id });
    expect(Buffer.compare(await readAll(await content.open()), Buffer.from(data))).toBe(0);
    expect(await t.usage()).toMatchObject({ files: 1, storage: data.length });
    // The parts went once joined; only the file's blob is left, and no hold.
    expect(await t.ports.blobs.size((await t.ports.files.findById(started.id))!.blobKey)).toBe(data.length);
    expect((t.ports.blobs as unknown as { keys(): string[] }).keys()).toHaveLength(1);
    expect(await t.ports.usage.staleHolds(new Date(8.64e15))).toEqual([]);
    // A client that missed the last answer learns from the upload's id that it is whole.
    expect(await t.core.getUpload.execute({ actor: t.alice.actor, id: started.id })).toMatchObject({
      offset: data.length,
      fileId: started.id,
    });
  });

  it('refuses an append at the wrong offset with the offset it holds, and stores nothing of it', async () => {
    const t = await setup();
    const { id } = await t.create(10);
    await t.append(id, 0, filled(4));
    const err = await failure(t.append(id, 2, filled(4)));
    expect(err.code).toBe('conflict');
    expect(err.details).toEqual({ offset: 4 });
    expect(await t.usage()).toMatchObject({ storage: 4 });
    expect((t.ports.blobs as unknown as { keys(): string[] }).keys()).toHaveLength(1);
  });

  it('lets exactly one of two concurrent appends at one offset land, never mixing their bytes', async () => {
    const t = await setup();
    const { id } = await t.create(8);
    const results = await Promise.allSettled([t.append(id, 0, filled(4, 1)), t.append(id, 0, filled(4, 2))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason.code).toBe('conflict');
    const session = (await t.ports.uploads.findById(id))!;
    expect(session.offset).toBe(4);
    expect(await t.usage()).toMatchObject({ storage: 4 });
    const stored = await readAll(await t.ports.blobs.read(session.parts[0]!.key));
    expect([Buffer.from(filled(4, 1)), Buffer.from(filled(4, 2))].some((b) => b.equals(stored))).toBe(true);
  });

  it('refuses at creation an Upload-Length beyond the cap or the storage left, holding nothing', async () => {
    const t = await setup({ maxUploadBytes: 1000, limits: { storage: 500 } });
    expect((await failure(t.create(1001))).code).toBe('payload_too_large');
    const err = await failure(t.create(501));
    expect(err.code).toBe('limit_reached');
    expect(err.details).toMatchObject({ limit: 'storage', max: '500', current: '0' });
    expect(await t.usage()).toMatchObject({ files: 0, storage: 0 });
  });

  it('refuses bytes past the upload length and keeps the upload as it was', async () => {
    const t = await setup();
    const { id } = await t.create(4);
    expect((await failure(t.append(id, 0, filled(5)))).code).toBe('payload_too_large');
    expect(await t.core.getUpload.execute({ actor: t.alice.actor, id })).toMatchObject({ offset: 0 });
    expect(await t.usage()).toMatchObject({ files: 1, storage: 0 });
  });

  it('commits nothing of an append whose content fails midway', async () => {
    const t = await setup();
    const { id } = await t.create(100);
    async function* broken() {
      yield filled(10);
      throw new Error('connection reset');
    }
    await expect(t.append(id, 0, broken())).rejects.toThrow('connection reset');
    expect(await t.core.getUpload.execute({ actor: t.alice.actor, id })).toMatchObject({ offset: 0 });
    expect(await t.usage()).toMatchObject({ storage: 0 });
    expect((t.ports.blobs as unknown as { keys(): string[] }).keys()).toHaveLength(0);
  });

  it('with room for 5, exactly 5 of 10 parallel uploads end as files and the counters equal what exists', async () => {
    const size = 100 * KIB;
    const t = await setup({ limits: { storage: 5 * size } });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, async (_, i) => {
        const { id } = await t.create(size);
        return t.append(id, 0, filled(size, i));
      }),
    );
    const files = outcomes.filter((o): o is PromiseFulfilledResult<ResumableUploadState> => o.status === 'fulfilled');
    expect(files).toHaveLength(5);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason.code).toBe('limit_reached');
    const stored = await t.ports.files.listByOwner(t.alice.userId);
    expect(stored).toHaveLength(5);
    // The refused ones ended with their refusal: no session, bytes or hold of theirs remains.
    expect(await t.ports.uploads.expiredIds(new Date(8.64e15), 100)).toEqual([]);
    expect(await t.usage()).toMatchObject({ files: 5, storage: 5 * size });
    expect((t.ports.blobs as unknown as { keys(): string[] }).keys()).toHaveLength(5);
    expect(await t.ports.usage.staleHolds(new Date(8.64e15))).toEqual([]);
  });

  it('gives back bytes, counts and parts when terminated, and refuses the upload afterwards', async () => {
    const t = await setup();
    const { id } = await t.create(100);
    await t.append(id, 0, filled(60));
    await t.core.terminateUpload.execute({ actor: t.alice.actor, id });
    expect(await t.usage()).toMatchObject({ files: 0, storage: 0 });
    expect((t.ports.blobs as unknown as { keys(): string[] }).keys()).toHaveLength(0);
    expect((await failure(t.append(id, 60, filled(40)))).code).toBe('not_found');
    expect((await failure(t.core.terminateUpload.execute({ actor: t.alice.actor, id }))).code).toBe('not_found');
  });

  it('expires when idle: gone at once, and the sweep gives everything back', async () => {
    const t = await setup();
    const { id, expiresAt } = await t.create(100);
    expect(expiresAt!.getTime() - t.clock.now().getTime()).toBe(24 * HOUR);
    t.clock.advance(23 * HOUR);
    // An append renews the idle lifetime.
    const renewed = await t.append(id, 0, filled(30));
    expect(renewed.expiresAt!.getTime() - t.clock.now().getTime()).toBe(24 * HOUR);
    t.clock.advance(2 * HOUR);
    expect(await t.core.sweepExpiredUploads.execute({})).toEqual({ expired: 0, failed: 0 });
    // Its creating instance is gone (this core never took a lease), but the upload lives: another instance's sweep
    // hands the hold to the upload, and the sweep of old holds leaves a live upload's hold alone, however old.
    const [other] = await instancesOn(t.ports, t.clock, 1);
    expect(await other!.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, kept: 1, released: 0 });
    expect(await other!.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, kept: 0 });
    expect(await t.core.sweepStaleHolds.execute({ graceMs: HOUR })).toMatchObject({ stale: 0 });
    expect(await t.usage()).toMatchObject({ files: 1, storage: 30 });
    t.clock.advance(23 * HOUR);
    expect((await failure(t.append(id, 30, filled(70)))).code).toBe('gone');
    expect(await t.core.sweepExpiredUploads.execute({})).toEqual({ expired: 1, failed: 0 });
    expect(await t.usage()).toMatchObject({ files: 0, storage: 0 });
    expect((t.ports.blobs as unknown as { keys(): string[] }).keys()).toHaveLength(0);
    expect(await t.ports.uploads.findById(id)).toBeNull();
  });

  it("keeps a live upload's parts from the sweep of orphan bytes", async () => {
    const t = await setup({ blobs: 'fs' });
    const { id } = await t.create(100);
    await t.append(id, 0, filled(60));
    // The part's file is made old, as if the upload had paused long before this sweep.
    const [part] = (await t.ports.uploads.findById(id))!.parts;
    const blobsDir = (t.ports.blobs as unknown as { blobsDir: string }).blobsDir;
    const long = new Date('2000-01-01T00:00:00.000Z');
    await utimes(join(blobsDir, part!.key.slice(0, 2), part!.key), long, long);
    const report = await t.core.sweepOrphanBlobs.execute({ graceMs: HOUR });
    expect(report).toMatchObject({ scanned: 1, deleted: 0 });
    const done = await t.append(id, 60, filled(40));
    expect(done.fileId).toBe(id);
  });

  it('makes the share the metadata asks for, with its password hashed from the start', async () => {
    const t = await setup();
    const { id } = await t.create(5, { share: { password: 'open sesame' } });
    expect(JSON.stringify(await t.ports.uploads.findById(id))).not.toContain('open sesame');
    await t.append(id, 0, filled(5));
    const file = await t.core.getFile.execute({ access: { actor: t.alice.actor, share: null }, id });
    expect(file.shareId).not.toBeNull();
    const shared = await failure(t.core.getShare.execute({ actor: null, id: file.shareId!, password: null }));
    expect(shared.code).toBe('share_password_required');
    expect(await t.core.getShare.execute({ actor: null, id: file.shareId!, password: 'open sesame' })).toMatchObject({
      type: 'file',
    });
  });

  it("goes with its bytes when an admin deletes the user", async () => {
    const t = await setup();
    const admin = await signUp(t, 'root', 'admin');
    const { id } = await t.create(100);
    await t.append(id, 0, filled(60));
    await t.core.deleteUser.execute({ actor: admin.actor, id: t.alice.userId });
    expect(await t.ports.uploads.findById(id)).toBeNull();
    expect((t.ports.blobs as unknown as { keys(): string[] }).keys()).toHaveLength(0);
  });

  it('makes an empty file at once from an upload of length 0', async () => {
    const t = await setup();
    const state = await t.create(0, { filename: 'empty.txt' });
    expect(state).toMatchObject({ offset: 0, fileId: state.id });
    expect(await t.usage()).toMatchObject({ files: 1, storage: 0 });
  });

  it("hides another user's upload as missing", async () => {
    const t = await setup();
    const bob = await signUp(t, 'bob');
    const { id } = await t.create(10);
    for (const call of [
      t.core.getUpload.execute({ actor: bob.actor, id }),
      t.core.appendUpload.execute({ actor: bob.actor, id, offset: 0, content: bytes('x') }),
      t.core.terminateUpload.execute({ actor: bob.actor, id }),
    ]) {
      expect((await failure(call)).code).toBe('not_found');
    }
  });
});
