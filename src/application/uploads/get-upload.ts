import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { ownedUpload } from './upload-state.js';

type Port = Core['getUpload'];

/** Where a resumable upload stands, for the client that resumes it (from any instance). */
export class GetUpload implements Port {
  constructor(private readonly p: Pick<Ports, 'uploads' | 'files' | 'clock'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    return (await ownedUpload(this.p, actor, id)).state;
  }
}
