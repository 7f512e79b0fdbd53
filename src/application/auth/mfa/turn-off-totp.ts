import { assertMay, badRequest, conflict, forbidden, unauthorized } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { judgeGuess } from '../judge-guess.js';
import { loginKeys } from '../throttle-rules.js';
import { proveFactor } from './prove-factor.js';

type Port = Core['turnOffTotp'];

/**
 * Turns TOTP off, its recovery codes with it. Both factors are proven: the password (throttled as a login's) and a
 * code (throttled as a sign-in's code), so a stolen session alone cannot strip the account of its second factor.
 */
export class TurnOffTotp implements Port {
  constructor(
    private readonly p: Pick<Ports, 'users' | 'hasher' | 'secondFactors' | 'codes' | 'secrets' | 'clock' | 'throttle'>,
  ) {}

  async execute({ actor, password, code, client }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    if (password === '') throw badRequest('password is required', { field: 'password' });
    if (code.trim() === '') throw badRequest('code is required', { field: 'code' });
    const user = await this.p.users.findById(actor.userId);
    if (!user) throw unauthorized('The user no longer exists');
    const before = await this.p.secondFactors.find(user.id);
    if (before?.totpSecret == null) throw conflict('TOTP is not on');
    const proven = await judgeGuess(this.p.throttle, loginKeys(user.username, client), async () =>
      user.passwordHash !== null && (await this.p.hasher.verify(user.passwordHash, password)) ? user : null,
    );
    if (!proven) throw forbidden('The password is wrong');
    const record = await proveFactor(this.p, user.id, code, client);
    if (!(await this.p.secondFactors.turnOffTotp(user.id, record.totpSecret, this.p.clock.now()))) {
      throw conflict('TOTP changed meanwhile; nothing was changed');
    }
  }
}
