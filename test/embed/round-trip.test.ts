import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedCore, type EmbeddedCoreOptions } from '../../src/embed.js';
import type { Core } from '../../src/application/index.js';
import { bytes, readAll, sessionOf } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { filesUnder } from '../support/wait.js';
import { tempDir } from '../support/temp.js';
import { dropDatabases, freshDbName } from '../mongodb/mongo-app.js';

const account = { username: 'host-admin', password: 'a long host password' };
const content = randomBytes(300 * 1024);

async function signIn(core: Core) {
  await core.ensureAdmin.execute(account);
  const { token } = sessionOf(await core.login.execute(account));
  return core.authenticate.execute({ token });
}

async function store(options: EmbeddedCoreOptions): Promise<string> {
  const opened = await openEmbeddedCore(options, { probe: async () => null });
  try {
    const actor = await signIn(opened.core);
    const file = await opened.core.uploadFile.execute({
      actor,
      folderId: null,
      name: null,
      filename: 'kept.bin',
      mime: 'application/octet-stream',
      content: bytes(content),
    });
    return file.id;
  } finally {
    await opened.close();
  }
}

async function readBack(options: EmbeddedCoreOptions, id: string): Promise<Buffer> {
  const opened = await openEmbeddedCore(options, { probe: async () => null });
  try {
    const actor = await signIn(opened.core);
    const found = await opened.core.openFileContent.execute({ access: { actor, share: null }, id });
    return await readAll(await found.open());
  } finally {
    await opened.close();
  }
}

describe('openEmbeddedCore on memory persistence', () => {
  it('keeps records and bytes together in memory: nothing written to the data directory, nothing half-kept', async () => {
    const dataDir = tempDir('embed-memory');
    const options: EmbeddedCoreOptions = { persistence: 'memory', dataDir, blobStore: 'fs', logLevel: 'silent' };
    const id = await store(options);
    // A reopened memory core starts empty; its bytes did not outlive the records that pointed at them.
    await expect(readBack(options, id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await filesUnder(dataDir)).toEqual([]);
  });
});

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

describe.skipIf(!target)('openEmbeddedCore on MongoDB', () => {
  const databases: string[] = [];
  afterAll(async () => {
    await dropDatabases(target!.uri, databases);
    await target!.stop();
  });

  // Without blobStore the bytes go where the service would put them (the filesystem under dataDir), never into memory.
  it.each(['gridfs', undefined] as const)('stores a file, closes, reopens and reads the same bytes back (blobStore %s)', async (blobStore) => {
    const mongodbDb = freshDbName();
    databases.push(mongodbDb);
    const options: EmbeddedCoreOptions = {
      mongodbUri: target!.uri,
      mongodbDb,
      blobStore,
      dataDir: tempDir('embed-mongo'),
      logLevel: 'silent',
    };
    const id = await store(options);
    expect((await readBack(options, id)).equals(content)).toBe(true);
    expect(await filesUnder(options.dataDir!)).toHaveLength(blobStore === 'gridfs' ? 0 : 1);
  });
});
