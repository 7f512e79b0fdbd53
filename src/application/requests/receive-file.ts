import type { RequestRoom } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { UploadFile } from '../files/upload-file.js';
import { note as noteActivity } from '../activity/note.js';
import type { Ports } from '../ports/index.js';
import { admitToRequest, giveBackRoom, receivedFrom, takeRequestRoom, uploaderFacing, type IntakeDeps } from './request-intake.js';

type Port = Core['receiveFile'];
type Deps = IntakeDeps & ConstructorParameters<typeof UploadFile>[0] & Pick<Ports, 'requests'>;

/**
 * One file sent through a file request, as an upload of the owner's into the request's folder. The request's room
 * is taken in conditional updates of its own record: one file first, then the bytes batch by batch as they arrive
 * (with the owner's storage, as every upload's), so the request's `maxFiles` and `maxBytes` hold exactly across
 * instances. A failure gives back what was taken, of the owner's counts (the upload's hold) and of the request's.
 */
export class ReceiveFile implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ content, deliver, filename, mime, uploaderName, note, ...key }: Parameters<Port['execute']>[0]) {
    const { request, actor, sender } = await admitToRequest(this.p, key, { uploaderName, note }, { filename, mime });
    const taken: RequestRoom = { files: 0, bytes: 0 };
    try {
      await takeRequestRoom(this.p, request.id, { files: 1, bytes: 0 });
      taken.files = 1;
      const takeBytes = async (bytes: number) => {
        await takeRequestRoom(this.p, request.id, { files: 0, bytes });
        taken.bytes += bytes;
      };
      const intake = { maxFileBytes: request.maxFileBytes, takeBytes, from: receivedFrom(request, sender, this.p.clock.now()) };
      const answer = (file: { id: string; name: string; size: string }) => ({ id: file.id, name: file.name, size: file.size });
      const upload = { actor, folderId: request.folderId, name: null, filename, mime, content, share: null };
      const file = await new UploadFile(this.p).receive(
        deliver ? { ...upload, deliver: (view) => deliver(answer(view)) } : upload,
        intake,
      );
      const target = { ownerId: request.ownerId, requestId: request.id };
      noteActivity(this.p, target, 'received', key.reader, { fileId: file.id, bytes: Number(file.size), complete: true });
      return answer(file);
    } catch (err) {
      await giveBackRoom(this.p, request.id, taken);
      throw uploaderFacing(err);
    }
  }
}
