import { DomainError } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { CreateUpload } from '../uploads/create-upload.js';
import { admitToRequest, uploaderFacing, type IntakeDeps } from './request-intake.js';

type Port = Core['createRequestUpload'];
type Deps = IntakeDeps & ConstructorParameters<typeof CreateUpload>[0] & Pick<Ports, 'requests'>;

/**
 * A resumable (tus) upload through a file request: the checks of a single-request one, then the request's room for
 * one file of the whole length taken in one conditional update (the length is known up front) under the upload's
 * hold, as an upload of the owner's into the request's folder (CreateUpload.start). Its id is the uploader's only
 * handle: HEAD, PATCH and DELETE of it need no credential, and nothing else opens to it. If it ends without a file,
 * the room goes back.
 */
export class CreateRequestUpload implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ length, filename, mime, uploaderName, note, ...key }: Parameters<Port['execute']>[0]) {
    const { request, actor, sender } = await admitToRequest(this.p, key, { uploaderName, note }, { filename, mime });
    if (request.maxFileBytes !== null && length > request.maxFileBytes) {
      throw new DomainError('payload_too_large', `A file sent here holds at most ${request.maxFileBytes} bytes`, {
        maxBytes: request.maxFileBytes,
      });
    }
    try {
      const upload = { actor, length, folderId: request.folderId, name: null, filename, mime, share: null };
      return await new CreateUpload(this.p).start(upload, { id: request.id, ...sender });
    } catch (err) {
      throw uploaderFacing(err);
    }
  }
}
