import type { FileRequest } from '../../domain/index.js';
import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { CreateFolder } from '../folders/create-folder.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';
import { withReserved } from '../usage/usage-limits.js';
import { requestOptions } from './request-options.js';
import { requestView } from './request-views.js';

type Port = Core['createRequest'];
type Deps = Pick<Ports, 'requests' | 'folders' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'hasher'>;

/**
 * A new file request, counted against the `requests` maximum in one conditional update (given back if it cannot be
 * made). Without `folderId`, what it receives lands in a new top-level folder named after it (a folder like any other:
 * it counts against `folders`).
 */
export class CreateRequest implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, folderId, ...input }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'request.create');
    const now = this.p.clock.now();
    const options = await requestOptions(this.p, input, now, true);
    if (folderId) owned(await this.p.folders.findById(folderId), actor.userId, 'Folder');
    const owner = await this.p.users.findById(actor.userId);
    if (!owner) throw notFound('User');
    const request = await withReserved(this.p, actor, 'requests', async () => {
      const target = folderId || (await new CreateFolder(this.p).execute({ actor, name: options.name!, parentId: null })).id;
      const made: FileRequest = {
        id: this.p.ids.newShareId(),
        ownerId: actor.userId,
        ownerName: owner.username,
        name: options.name!,
        message: null,
        folderId: target,
        passwordHash: null,
        expiresAt: null,
        maxFiles: null,
        maxBytes: null,
        maxFileBytes: null,
        allowedTypes: [],
        requireName: false,
        closed: false,
        files: 0,
        bytes: 0,
        createdAt: now,
        updatedAt: now,
        ...options,
      };
      await this.p.requests.insert(made);
      return made;
    });
    return requestView(request, now);
  }
}
