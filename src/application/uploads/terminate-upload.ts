import { notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { releaseSession } from './release-session.js';
import { reachableSession } from './upload-state.js';

type Port = Core['terminateUpload'];

/**
 * Ends an unfinished upload: its bytes and everything it held go. An append still under way then fails to land. An
 * upload through a file request ends for whoever holds its address (its uploader), without a credential.
 */
export class TerminateUpload implements Port {
  constructor(private readonly p: Pick<Ports, 'uploads' | 'blobs' | 'usage' | 'requests'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    await reachableSession(this.p, actor, id);
    const taken = await this.p.uploads.take(id);
    if (!taken) throw notFoundUpload();
    await releaseSession(this.p, taken);
  }
}

const notFoundUpload = () => notFound('Upload');
