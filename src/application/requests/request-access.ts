import type { Actor, FileRequest } from '../../domain/index.js';
import { DomainError, notFound } from '../../domain/index.js';
import type { RequestKey } from '../contract.js';
import { judgeGuess, rateLimited } from '../auth/judge-guess.js';
import { requestPasswordKeys, unknownRequestKey } from '../auth/throttle-rules.js';
import type { Ports } from '../ports/index.js';
import { note, type NoteDeps } from '../activity/note.js';
import { grantOpensFor, type Grantable } from '../shares/share-grant.js';

export type RequestAccessDeps = Pick<Ports, 'requests' | 'hasher' | 'throttle' | 'clock' | 'secrets'> & NoteDeps;

export const grantable = (request: FileRequest): Grantable => ({
  purpose: 'request',
  id: request.id,
  passwordHash: request.passwordHash,
});

/**
 * A request by its public id; a missing one is not_found. An address that keeps asking for ids that do not exist is
 * scanning: past the limit its unknown ids answer rate_limited (as share ids do).
 */
export async function findRequest(p: Pick<Ports, 'requests' | 'throttle'>, key: RequestKey): Promise<FileRequest> {
  const request = await p.requests.findById(key.id);
  if (request) return request;
  const unknown = unknownRequestKey(key.client);
  if (unknown) {
    const wait = await p.throttle.count([unknown]);
    if (wait > 0) throw rateLimited(wait);
  }
  throw notFound('Request');
}

/** Whether the key opens the request without judging a guess: an open request, or a valid grant. */
export function openedWithoutGuess(p: Pick<Ports, 'secrets' | 'clock'>, request: FileRequest, key: RequestKey): boolean {
  return request.passwordHash === null || (!!key.grant && grantOpensFor(p, grantable(request), key.grant));
}

/**
 * A protected request needs its password (X-Request-Password) or the grant its unlock handed out. Guesses are
 * throttled as share passwords are: per request, per request and address, and an address spraying many requests.
 */
export async function unlockRequestKey(p: RequestAccessDeps, request: FileRequest, key: RequestKey): Promise<void> {
  if (openedWithoutGuess(p, request, key)) return;
  const { passwordHash } = request;
  const { password, client } = key;
  if (password === null || password === '') {
    throw new DomainError('share_password_required', 'This request is protected by a password');
  }
  const right = async () => ((await p.hasher.verify(passwordHash!, password)) ? request : null);
  if (!(await judgeGuess(p.throttle, requestPasswordKeys(request.id, client), right))) {
    note(p, { ownerId: request.ownerId, requestId: request.id }, 'password_refused', key.reader);
    throw new DomainError('share_password_invalid', 'The request password is wrong');
  }
}

/**
 * Who uploads through a request: the request's owner, as far as counts, limits and the target folder go, by way of
 * the request (via `request`), which may upload and do nothing else. Made only here, never from a credential.
 */
export async function requestActor(p: Pick<Ports, 'users'>, ownerId: string, requestId: string): Promise<Actor> {
  const owner = await p.users.findById(ownerId);
  if (!owner) throw notFound('Request');
  return { userId: owner.id, userType: owner.type, via: 'request', tokenId: requestId, limits: owner.limits };
}
