import { assertMay, conflict } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { newRecoveryCodes } from './codes.js';
import { proveFactor } from './prove-factor.js';

type Port = Core['newRecoveryCodes'];

/** Ten new recovery codes for a code (TOTP or recovery); the old ones stop working in the same write. */
export class NewRecoveryCodes implements Port {
  constructor(private readonly p: Pick<Ports, 'secondFactors' | 'codes' | 'secrets' | 'clock' | 'throttle'>) {}

  async execute({ actor, code, client }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    const record = await proveFactor(this.p, actor.userId, code, client);
    const { codes, hashes } = newRecoveryCodes(this.p, actor.userId);
    const replaced = await this.p.secondFactors.replaceRecoveryCodes(
      actor.userId,
      record.totpSecret,
      hashes,
      this.p.clock.now(),
    );
    if (!replaced) throw conflict('TOTP changed meanwhile; nothing was changed');
    return { recoveryCodes: codes };
  }
}
