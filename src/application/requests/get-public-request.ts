import type { Core } from '../contract.js';
import { findRequest, openedWithoutGuess, unlockRequestKey, type RequestAccessDeps } from './request-access.js';
import { lockedRequestView, publicRequestView } from './request-views.js';

/**
 * What an uploader sees of a request, whatever its state (the state says whether it takes files). A protected one
 * shows only its name and state until its password or grant comes; a wrong password is refused (throttled).
 */
export class GetPublicRequest implements Pick<Core['getPublicRequest'], 'execute'> {
  constructor(private readonly p: RequestAccessDeps) {}

  async execute(key: Parameters<Core['getPublicRequest']['execute']>[0]) {
    const request = await findRequest(this.p, key);
    const now = this.p.clock.now();
    if (openedWithoutGuess(this.p, request, key)) return publicRequestView(request, now);
    if (key.password === null || key.password === '') return lockedRequestView(request, now);
    await unlockRequestKey(this.p, request, key);
    return publicRequestView(request, now);
  }
}
