import type { Folder } from '../../domain/index.js';
import { assertDepthAllowed, assertMay, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned, withReserved } from '../usage-limits.js';
import { folderView } from '../views.js';

type Port = Core['createFolder'];

export class CreateFolder implements Port {
  constructor(private readonly p: Pick<Ports, 'folders' | 'users' | 'usage' | 'settings' | 'ids' | 'clock'>) {}

  async execute({ actor, name, parentId }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.create');
    const cleanName = requireName(name);
    if (parentId !== null) {
      owned(await this.p.folders.findById(parentId), actor.userId, 'Parent folder');
      const chain = await this.p.folders.chain(parentId);
      assertDepthAllowed(chain.length - 1);
    }
    return withReserved(this.p, actor.userId, 'folders', async () => {
      const now = this.p.clock.now();
      const folder: Folder = {
        id: this.p.ids.newId(),
        ownerId: actor.userId,
        parentId,
        name: cleanName,
        createdAt: now,
        updatedAt: now,
      };
      await this.p.folders.insert(folder);
      return folderView(folder, null);
    });
  }
}
