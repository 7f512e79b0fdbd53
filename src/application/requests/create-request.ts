import type { FileRequest } from '../../domain/index.js';
import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { CreateFolder } from '../folders/create-folder.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';
import { createHeld } from '../usage/record-holds.js';
import { requestOptions } from './request-options.js';
import { requestView } from './request-views.js';

type Port = Core['createRequest'];
type Deps = Pick<Ports, 'requests' | 'folders' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'hasher' | 'instance'>;

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
    const made: FileRequest = {
      id: this.p.ids.newShareId(),
      ownerId: actor.userId,
      ownerName: owner.username,
      name: options.name!,
      message: null,
      folderId: folderId ?? '',
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
    // Counted under a hold naming this instance, as every small record is: a kill between the count and the record is
    // repaired by the sweep of gone instances.
    const request = await createHeld(this.p, actor, 'requests', 'request', made.id, {
      insert: async () => {
        // Its own folder only once the request is counted: a refused request leaves no folder behind.
        if (!folderId) made.folderId = (await new CreateFolder(this.p).execute({ actor, name: made.name, parentId: null })).id;
        await this.p.requests.insert(made);
        return made;
      },
      takeBack: async () => (await this.p.requests.delete(made.id)) !== null,
    });
    return requestView(request, now);
  }
}
