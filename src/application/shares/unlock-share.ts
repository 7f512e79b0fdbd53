import type { Core } from '../contract.js';
import { readShare, type ReadShareDeps } from './get-share.js';
import { issueGrant } from './share-grant.js';

type Port = Core['unlockShare'];

/**
 * The share page's password form: the one read that checks the password (throttled like any guess), counts the
 * visit's view, and hands out the grant its later reads (previews, downloads, ranges, the archive) present instead.
 */
export class UnlockShare implements Port {
  constructor(private readonly p: ReadShareDeps) {}

  async execute(input: Parameters<Port['execute']>[0]) {
    const { share, view } = await readShare(this.p, input);
    return { share: view, grant: issueGrant(this.p, share) };
  }
}
