import { assertMay, badRequest, conflict, forbidden } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { newRecoveryCodes } from './codes.js';

type Port = Core['confirmTotp'];

/**
 * Turns TOTP on once a code of the pending secret proves the app holds it. The recovery codes are shown here only.
 * The user's other sessions end (they were opened with the password alone); this one and the API tokens stay.
 */
export class ConfirmTotp implements Port {
  constructor(private readonly p: Pick<Ports, 'secondFactors' | 'codes' | 'secrets' | 'tokens' | 'clock'>) {}

  async execute({ actor, code }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    if (code.trim() === '') throw badRequest('code is required', { field: 'code' });
    const record = await this.p.secondFactors.find(actor.userId);
    if (record?.totpSecret != null) throw conflict('TOTP is already on');
    const secret = record?.pendingTotpSecret ?? null;
    if (secret === null) throw conflict('No TOTP setup is pending; start one with POST /api/auth/mfa/totp');
    // No throttle here: the caller was just handed the secret, so guessing a code of it gains nothing.
    const step = await this.p.codes.totpStep(secret, code.trim(), this.p.clock.now());
    if (step === null) throw forbidden('The code is wrong');
    const { codes, hashes } = newRecoveryCodes(this.p, actor.userId);
    const confirmed = await this.p.secondFactors.confirmTotp(actor.userId, {
      secret,
      step,
      recoveryCodeHashes: hashes,
      updatedAt: this.p.clock.now(),
    });
    if (!confirmed) throw conflict('The TOTP setup changed meanwhile; nothing was changed');
    await this.p.tokens.deleteByUser(actor.userId, 'session', actor.tokenId);
    return { recoveryCodes: codes };
  }
}
