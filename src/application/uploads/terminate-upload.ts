import { notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { releaseSession } from './release-session.js';

type Port = Core['terminateUpload'];

/** Ends an unfinished upload: its bytes and everything it held go. An append still under way then fails to land. */
export class TerminateUpload implements Port {
  constructor(private readonly p: Pick<Ports, 'uploads' | 'blobs' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    const session = await this.p.uploads.findById(id);
    if (!session || session.ownerId !== actor.userId) throw notFound('Upload');
    const taken = await this.p.uploads.take(id);
    if (!taken) throw notFound('Upload');
    await releaseSession(this.p, taken);
  }
}
