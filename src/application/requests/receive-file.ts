import type { Core } from '../contract.js';
import { UploadFile, type Intake } from '../files/upload-file.js';
import { note as noteActivity } from '../activity/note.js';
import type { Ports } from '../ports/index.js';
import { admitToRequest, giveBackRoom, receivedFrom, takeRequestRoom, uploaderFacing, type IntakeDeps } from './request-intake.js';

type Port = Core['receiveFile'];
type Deps = IntakeDeps & ConstructorParameters<typeof UploadFile>[0] & Pick<Ports, 'requests'>;

/**
 * One file sent through a file request, as an upload of the owner's into the request's folder. The request's room
 * is taken in conditional updates of its own record, held by the upload's hold once that stands: one file first, then
 * the bytes batch by batch as they arrive (with the owner's storage, as every upload's), so the request's `maxFiles`
 * and `maxBytes` hold exactly across instances. A failure gives back what was taken, of the request's and of the
 * owner's counts (the upload's hold); a crash leaves both to the sweep of gone instances, which ends the hold.
 */
export class ReceiveFile implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ content, deliver, filename, mime, uploaderName, note, ...key }: Parameters<Port['execute']>[0]) {
    const { request, actor, sender } = await admitToRequest(this.p, key, { uploaderName, note }, { filename, mime });
    let hold: string | null = null;
    try {
      const intake: Intake = {
        maxFileBytes: request.maxFileBytes,
        take: async (id, room) => {
          hold = id;
          await takeRequestRoom(this.p, request.id, room, id);
        },
        giveBack: (id) => giveBackRoom(this.p, id),
        from: receivedFrom(request, sender, this.p.clock.now()),
      };
      const answer = (file: { id: string; name: string; size: string }) => ({ id: file.id, name: file.name, size: file.size });
      const upload = { actor, folderId: request.folderId, name: null, filename, mime, content, share: null };
      const file = await new UploadFile(this.p).receive(
        deliver ? { ...upload, deliver: (view) => deliver(answer(view)) } : upload,
        intake,
      );
      // The room is the received file's now. Left held if this fails: nothing gives back a hold that settled.
      await Promise.allSettled([this.p.requests.settleHeld(file.id)]);
      const target = { ownerId: request.ownerId, requestId: request.id };
      noteActivity(this.p, target, 'received', key.reader, { fileId: file.id, bytes: Number(file.size), complete: true });
      return answer(file);
    } catch (err) {
      // Whatever failed gave the room back before the hold went (UploadFile, landFile); this only makes sure, at most once.
      if (hold !== null) await giveBackRoom(this.p, hold);
      throw uploaderFacing(err);
    }
  }
}
