import type { Folder } from '../../domain/index.js';
import { assertDepthAllowed, assertMay, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { createHeld } from '../usage/record-holds.js';
import { owned } from '../owned.js';
import { folderView } from '../views.js';

type Port = Core['createFolder'];

export class CreateFolder implements Port {
  constructor(private readonly p: Pick<Ports, 'folders' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'instance'>) {}

  async execute({ actor, name, parentId }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.create');
    const cleanName = requireName(name);
    if (parentId !== null) {
      owned(await this.p.folders.findById(parentId), actor.userId, 'Parent folder');
      const chain = await this.p.folders.chain(parentId);
      assertDepthAllowed(chain.length - 1);
    }
    const now = this.p.clock.now();
    const created: Folder = {
      id: this.p.ids.newId(),
      ownerId: actor.userId,
      parentId,
      name: cleanName,
      createdAt: now,
      updatedAt: now,
    };
    const folder = await createHeld(this.p, actor, 'folders', 'folder', created.id, {
      insert: async () => (await this.p.folders.insert(created), created),
      check: async () => (parentId === null || (await this.p.folders.findById(parentId)) ? null : notFound('Parent folder')),
      // A delete of the parent marked it since it was checked: the folder takes itself back, unless that delete got
      // to it first (it then counts the folder and gives its count back).
      takeBack: async () => (await this.p.folders.deleteMany([created.id])) > 0,
    });
    return folderView(folder, null);
  }
}
