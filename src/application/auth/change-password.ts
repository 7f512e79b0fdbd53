import { assertMay, badRequest, conflict, forbidden, isValidPassword, unauthorized } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { judgeGuess } from './judge-guess.js';
import type { Ports } from '../ports/index.js';
import { loginKeys } from './throttle-rules.js';

type Port = Core['changePassword'];

/**
 * A user sets a new password from a session, proving the current one. The proof is a guess at the account like a
 * login's and is throttled under the very same keys, so a stolen session gains no faster way to try passwords.
 */
export class ChangePassword implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'tokens' | 'hasher' | 'clock' | 'throttle'>) {}

  async execute({ actor, currentPassword, newPassword, client }: Parameters<Port['execute']>[0]): Promise<void> {
    assertMay(actor, 'auth.password');
    if (currentPassword === '') throw badRequest('currentPassword is required', { field: 'currentPassword' });
    if (!isValidPassword(newPassword)) {
      throw badRequest('newPassword must be 8 to 256 characters', { field: 'newPassword' });
    }
    // A change to the same password would lift mustChangePassword while the generated (logged) one stays in use.
    if (newPassword === currentPassword) {
      throw badRequest('newPassword must differ from the current password', { field: 'newPassword' });
    }
    const user = await this.p.users.findById(actor.userId);
    if (!user) throw unauthorized('The user no longer exists');
    const { passwordHash } = user;
    // Nothing to prove a first password against: an admin sets it (PATCH /api/admin/users/{id}), the user then changes it.
    if (passwordHash === null) {
      throw forbidden('Your account has no password (it signs in with single sign-on); an admin can set one');
    }
    const proven = await judgeGuess(this.p.throttle, loginKeys(user.username, client), async () =>
      (await this.p.hasher.verify(passwordHash, currentPassword)) ? user : null,
    );
    // The session is fine, only the proof is not: 403, so a client does not take it for a lost login.
    if (!proven) throw forbidden('The current password is wrong');
    // One write, and only over the very record whose hash was checked: a change by anyone else in between (an admin
    // reset, another of this user's sessions) wins, and this one writes nothing.
    const changed = await this.p.users.changeOwnPassword(user.id, {
      fromEpoch: user.credentialsEpoch,
      passwordHash: await this.p.hasher.hash(newPassword),
      keptSessionId: actor.tokenId,
      updatedAt: this.p.clock.now(),
    });
    if (!changed) throw conflict('The password was changed by another request meanwhile; nothing was changed');
    // The same write kept this session valid (keptSessionId); stamping it with the new epoch makes that permanent,
    // so a later change made elsewhere ends it like any other. A login that raced this change keeps the old epoch
    // and dies. The other sessions are already refused; deleting them only tidies up. API tokens stay.
    await this.p.tokens.moveEpoch(actor.tokenId, user.credentialsEpoch, changed.credentialsEpoch);
    await this.p.tokens.deleteByUser(user.id, 'session', actor.tokenId);
  }
}
