import type { Ports, SecondFactorRecord } from '../../ports/index.js';
import type { MfaMethod } from '../../views.js';

/** How many recovery codes a user gets at a time. */
export const RECOVERY_CODES = 10;
/** The issuer an authenticator app shows next to the account. */
export const TOTP_ISSUER = 'Coffer';

type CodeDeps = Pick<Ports, 'secondFactors' | 'codes' | 'secrets' | 'clock'>;

/** What a recovery code is stored as: spaces, dashes and case do not matter when one is typed back. */
export function recoveryCodeHash(secrets: Pick<Ports, 'secrets'>['secrets'], userId: string, code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '');
  // The user's id goes into the digest, so equal codes of two users never share one and no table serves all users.
  return secrets.hash(`${userId}:${normalized}`);
}

/** Ten new recovery codes, and the digests that are all that is kept of them. */
export function newRecoveryCodes(p: Pick<Ports, 'codes' | 'secrets'>, userId: string) {
  const codes = Array.from({ length: RECOVERY_CODES }, () => p.codes.newRecoveryCode());
  return { codes, hashes: codes.map((code) => recoveryCodeHash(p.secrets, userId, code)) };
}

/** The methods a user with this record may answer a sign-in with. */
export function methodsOf(record: SecondFactorRecord | null): MfaMethod[] {
  const methods: MfaMethod[] = [];
  if (record?.totpSecret != null) {
    methods.push('totp');
    if (record.recoveryCodeHashes.length > 0) methods.push('recovery');
  }
  if ((record?.passkeyCount ?? 0) > 0) methods.push('passkey');
  return methods;
}

/**
 * Uses `code` as a second factor of the user: a TOTP code of a step not used yet, or an unused recovery code. It is
 * spent in the same conditional write that accepts it, so it works once, whatever races it. Null when it is wrong.
 */
export async function spendCode(p: CodeDeps, record: SecondFactorRecord, code: string): Promise<MfaMethod | null> {
  const secret = record.totpSecret;
  if (secret === null) return null;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const step = await p.codes.totpStep(secret, trimmed, p.clock.now());
    if (step === null) return null;
    return (await p.secondFactors.useTotpStep(record.userId, secret, step)) ? 'totp' : null;
  }
  const used = await p.secondFactors.useRecoveryCode(record.userId, recoveryCodeHash(p.secrets, record.userId, trimmed));
  return used ? 'recovery' : null;
}
