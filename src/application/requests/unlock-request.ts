import type { Core } from '../contract.js';
import { issueGrantFor } from '../shares/share-grant.js';
import { findRequest, grantable, unlockRequestKey, type RequestAccessDeps } from './request-access.js';
import { publicRequestView } from './request-views.js';

/** The page's password form: the password checked (throttled), the request's public view and a grant. */
export class UnlockRequest implements Pick<Core['unlockRequest'], 'execute'> {
  constructor(private readonly p: RequestAccessDeps) {}

  async execute(key: Parameters<Core['unlockRequest']['execute']>[0]) {
    const request = await findRequest(this.p, key);
    await unlockRequestKey(this.p, request, { ...key, grant: null });
    return { request: publicRequestView(request, this.p.clock.now()), grant: issueGrantFor(this.p, grantable(request)) };
  }
}
