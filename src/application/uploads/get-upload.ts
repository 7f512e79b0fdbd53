import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { checkedParts } from './checked-parts.js';
import { ownedUpload, stateOf } from './upload-state.js';

type Port = Core['getUpload'];

/**
 * Where a resumable upload stands, for the client that resumes it (from any instance): the offset its stored bytes
 * truly reach, so a resume never builds on bytes a crash lost.
 */
export class GetUpload implements Port {
  constructor(private readonly p: Pick<Ports, 'uploads' | 'files' | 'shares' | 'clock' | 'blobs' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    const { session, state } = await ownedUpload(this.p, actor, id);
    if (!session) return state;
    const checked = await checkedParts(this.p, session);
    // Gone meanwhile: completed (its file answers) or ended (not found, gone).
    return checked ? stateOf(checked) : (await ownedUpload(this.p, actor, id)).state;
  }
}
