import type { Folder } from '../../domain/index.js';
import { assertDepthAllowed, assertMay, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { withReserved } from '../usage/usage-limits.js';
import { owned } from '../owned.js';
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
    const folder = await withReserved(this.p, actor, 'folders', async () => {
      const now = this.p.clock.now();
      const created: Folder = {
        id: this.p.ids.newId(),
        ownerId: actor.userId,
        parentId,
        name: cleanName,
        createdAt: now,
        updatedAt: now,
      };
      await this.p.folders.insert(created);
      return created;
    });
    if (parentId !== null) await this.assertLanded(folder, parentId);
    return folderView(folder, null);
  }

  /**
   * A delete of the parent may have marked it since it was checked. Then the new folder takes itself back: the
   * delete either never saw it, or deletes it too; whichever delete removes it releases its count.
   */
  private async assertLanded(folder: Folder, parentId: string): Promise<void> {
    if (await this.p.folders.findById(parentId)) return;
    if ((await this.p.folders.deleteMany([folder.id])) > 0) await this.p.usage.release(folder.ownerId, 'folders', 1);
    throw notFound('Parent folder');
  }
}
