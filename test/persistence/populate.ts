import type { Core } from '../../src/application/index.js';
import type { Actor, Usage } from '../../src/domain/index.js';
import { bytes } from '../support/core.js';

/** One of everything a user can own, through the real use cases; returns the counters that must result. */
export async function populate(core: Core, actor: Actor): Promise<Usage> {
  const folder = await core.createFolder.execute({ actor, name: 'docs', parentId: null });
  await core.createFolder.execute({ actor, name: 'inner', parentId: folder.id });
  const file = await core.uploadFile.execute({
    actor,
    folderId: folder.id,
    name: null,
    filename: 'notes.txt',
    mime: 'text/plain',
    content: bytes('0123456789'),
  });
  await core.createPaste.execute({ actor, content: 'abcde' });
  const collection = await core.createCollection.execute({ actor, name: 'picks' });
  await core.addToCollection.execute({ actor, id: collection.id, fileId: file.id });
  await core.createShare.execute({ actor, type: 'file', id: file.id, password: null });
  await core.createApiToken.execute({ actor, name: 'sharex' });
  return { storage: 15, files: 1, folders: 2, pastes: 1, collections: 1, shares: 1, tokens: 1, requests: 0 };
}
