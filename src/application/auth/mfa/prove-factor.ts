import { badRequest, conflict, forbidden } from '../../../domain/index.js';
import type { ClientAddress } from '../../contract.js';
import type { Ports, SecondFactorRecord } from '../../ports/index.js';
import { judgeGuess } from '../judge-guess.js';
import { codeKeys } from '../throttle-rules.js';
import { spendCode } from './codes.js';

type Deps = Pick<Ports, 'secondFactors' | 'codes' | 'secrets' | 'clock' | 'throttle'>;

/**
 * A signed-in user proves their second factor again before changing it: a TOTP or recovery code, spent if right,
 * throttled as the code of a sign-in is. The record it was judged against comes back (TOTP on).
 */
export async function proveFactor(
  p: Deps,
  userId: string,
  code: string,
  client: ClientAddress | undefined,
): Promise<SecondFactorRecord & { totpSecret: string }> {
  if (code.trim() === '') throw badRequest('code is required', { field: 'code' });
  const record = await p.secondFactors.find(userId);
  const secret = record?.totpSecret ?? null;
  if (record === null || secret === null) throw conflict('TOTP is not on');
  const method = await judgeGuess(p.throttle, codeKeys(userId, client), () => spendCode(p, record, code));
  // The session is fine, only the proof is not: 403, as a wrong current password is.
  if (method === null) throw forbidden('The code is wrong');
  return { ...record, totpSecret: secret };
}
