import type { Actor } from '../../domain/index.js';
import { forbidden, isCurrentFor, isExpired, refreshedExpiry, unauthorized } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { sessionLifetime } from './issue-session.js';

type Port = Core['authenticate'];

export class Authenticate implements Port {
  constructor(private readonly p: Pick<Ports, 'callers' | 'tokens' | 'secrets' | 'clock' | 'settings'>) {}

  async execute({ token, dav = false }: Parameters<Port['execute']>[0]): Promise<Actor> {
    if (token === '') throw unauthorized();
    // The token and its user in one read: every authenticated request pays for it.
    const caller = await this.p.callers.findByTokenHash(this.p.secrets.hash(token));
    if (!caller) throw unauthorized('Invalid or revoked token');
    const { token: stored, user } = caller;
    const now = this.p.clock.now();
    const lifetime = sessionLifetime(this.p.settings);
    if (isExpired(stored, now, lifetime)) {
      // An expired session is dead weight; dropping it on sight keeps the token store from growing forever.
      await this.p.tokens.delete(stored.id);
      throw unauthorized('The session has expired');
    }
    // The type comes from the user record on every request, so a demoted admin loses admin rights at once; the
    // same read says whether the password the session was opened with is still the user's (no extra query).
    if (!user) throw unauthorized('Invalid or revoked token');
    if (!isCurrentFor(stored, user)) {
      // A login that raced a password change left this session behind its deleteByUser; it goes now.
      await this.p.tokens.delete(stored.id);
      throw unauthorized('Invalid or revoked token');
    }
    if (stored.credentialsEpoch !== null && stored.credentialsEpoch !== user.credentialsEpoch) {
      // The session kept by its own password change, not re-stamped yet (the change is still writing, or died
      // first): finish the re-stamp, so a later change made from this session does not end it.
      await this.p.tokens.moveEpoch(stored.id, stored.credentialsEpoch, user.credentialsEpoch);
    }
    // A dav token opens WebDAV and nothing else; WebDAV takes nothing but it and the password (see SignInBasic).
    if ((stored.type === 'dav') !== dav) {
      throw forbidden(dav ? 'Only a dav token or the password signs in to WebDAV' : 'A dav token works only under /dav/');
    }
    // Idle expiry: use keeps a session alive. Written only now and then (see refreshedExpiry), with no read added.
    const later = refreshedExpiry(stored, now, lifetime);
    if (later) await this.p.tokens.extendExpiry(stored.id, later, now);
    return { userId: user.id, userType: user.type, via: stored.type, tokenId: stored.id, limits: user.limits };
  }
}
