import { badRequest, conflict, isWellFormed, cleanName } from '../../../domain/index.js';
import type {
  CeremonyOptions,
  CeremonyPurpose,
  CredentialJson,
  Passkey,
  Ports,
  RelyingParty,
  WebAuthnChallenge,
} from '../../ports/index.js';

/** The most passkeys one user may have. */
export const MAX_PASSKEYS = 20;
/** How long options stay answerable: their challenge lives this long in the database, and works once. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** The name an authenticator shows for the site. */
export const RP_NAME = 'Coffer';
export const PASSKEY_NAME_MAX = 64;
/** The name of a passkey registered without one. */
export const DEFAULT_PASSKEY_NAME = 'Passkey';

export const tooManyPasskeys = () =>
  conflict(`You have the most passkeys an account may have (${MAX_PASSKEYS}); remove one first`, {
    limit: 'passkeys',
    max: MAX_PASSKEYS,
  });

/** A passkey's name: cleaned as every name is, then 1 to 64 characters (never cut short silently). */
export function passkeyName(raw: string): string {
  if (!isWellFormed(raw)) throw badRequest('name must be valid Unicode text', { field: 'name' });
  const name = cleanName(raw, Number.MAX_SAFE_INTEGER);
  if (name.length === 0) throw badRequest('name must not be empty', { field: 'name' });
  if ([...name].length > PASSKEY_NAME_MAX) {
    throw badRequest(`name must be at most ${PASSKEY_NAME_MAX} characters`, { field: 'name' });
  }
  return name;
}

/** Stores the challenge of freshly made options with what it may serve, and hands the options on. */
export async function issueChallenge(
  p: Pick<Ports, 'webauthnChallenges' | 'clock'>,
  made: { challenge: string; options: CeremonyOptions },
  bound: { purpose: CeremonyPurpose; userId: string | null; mfaTokenHash: string | null; rp: RelyingParty },
): Promise<CeremonyOptions> {
  await p.webauthnChallenges.insert({
    challenge: made.challenge,
    ...bound,
    expiresAt: new Date(p.clock.now().getTime() + CHALLENGE_TTL_MS),
  });
  return made.options;
}

/**
 * Takes the challenge a response claims to answer, if it was handed out for `purpose` to the relying party this
 * request came to, and is unexpired: at most once, whatever races it. The response is then verified against it.
 */
export async function takeChallenge(
  p: Pick<Ports, 'webauthnChallenges' | 'webauthn' | 'clock'>,
  response: CredentialJson,
  purpose: CeremonyPurpose,
  rp: RelyingParty,
): Promise<WebAuthnChallenge | null> {
  const claimed = p.webauthn.challengeOf(response);
  if (claimed === null) return null;
  const taken = await p.webauthnChallenges.take(claimed, purpose, p.clock.now());
  if (!taken || taken.rp.id !== rp.id || taken.rp.origin !== rp.origin) return null;
  return taken;
}

/**
 * Verifies an assertion with the stored passkey and records the use: the new counter is written only while the
 * stored one is still what was checked against, so a clone or a replay racing this one cannot pass too.
 */
export async function useAssertion(
  p: Pick<Ports, 'passkeys' | 'webauthn' | 'clock'>,
  response: CredentialJson,
  challenge: WebAuthnChallenge,
  passkey: Passkey,
): Promise<{ userVerified: boolean } | null> {
  const verdict = await p.webauthn.verifyAuthentication({
    response,
    challenge: challenge.challenge,
    rp: challenge.rp,
    credential: passkey,
  });
  if (!verdict.ok) return null;
  const recorded = await p.passkeys.recordUse(passkey.id, passkey.counter, verdict.value.newCounter, p.clock.now());
  return recorded ? { userVerified: verdict.value.userVerified } : null;
}

export const refs = (passkeys: Passkey[]) =>
  passkeys.map((passkey) => ({ credentialId: passkey.credentialId, transports: passkey.transports }));
