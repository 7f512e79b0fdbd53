import { injectable } from 'inversify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type {
  AssertionClaim,
  CeremonyOptions,
  CredentialJson,
  CredentialRef,
  NewCredential,
  RelyingParty,
  StoredCredential,
  Verdict,
  WebAuthn,
} from '../../application/ports/webauthn.js';

/** How long a browser waits for the person at the authenticator; the challenge itself lives 5 minutes. */
const CEREMONY_TIMEOUT_MS = 120_000;
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const descriptors = (refs: CredentialRef[]) =>
  refs.map((ref) => ({ id: ref.credentialId, transports: knownTransports(ref.transports) }));

function knownTransports(values: unknown): string[] {
  if (!Array.isArray(values)) return [];
  return values.filter((v): v is string => typeof v === 'string' && TRANSPORTS.has(v));
}

const refused = (err: unknown): { ok: false; reason: string } => ({
  ok: false,
  reason: err instanceof Error ? err.message : 'The answer could not be read',
});

function clientData(response: CredentialJson): Record<string, unknown> | null {
  const inner = response['response'];
  if (typeof inner !== 'object' || inner === null) return null;
  const encoded = (inner as Record<string, unknown>)['clientDataJSON'];
  if (typeof encoded !== 'string' || !isoBase64URL.isBase64URL(encoded)) return null;
  try {
    const parsed: unknown = JSON.parse(isoBase64URL.toUTF8String(encoded));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The WebAuthn port through @simplewebauthn/server. User verification is preferred, never required: a passkey
 * whose authenticator cannot verify the person still answers (the core decides what such an answer may do).
 * Attestation is not asked for ("none"); a response that carries one anyway has it verified.
 */
@injectable()
export class SimpleWebAuthn implements WebAuthn {
  async registrationOptions(input: {
    rp: RelyingParty;
    rpName: string;
    userId: string;
    userName: string;
    exclude: CredentialRef[];
  }): Promise<{ challenge: string; options: CeremonyOptions }> {
    const options = await generateRegistrationOptions({
      rpName: input.rpName,
      rpID: input.rp.id,
      userName: input.userName,
      userDisplayName: input.userName,
      userID: new TextEncoder().encode(input.userId),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: descriptors(input.exclude),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    return { challenge: options.challenge, options: options as unknown as CeremonyOptions };
  }

  async authenticationOptions(input: {
    rp: RelyingParty;
    allow: CredentialRef[] | null;
  }): Promise<{ challenge: string; options: CeremonyOptions }> {
    const options = await generateAuthenticationOptions({
      rpID: input.rp.id,
      timeout: CEREMONY_TIMEOUT_MS,
      userVerification: 'preferred',
      ...(input.allow === null ? {} : { allowCredentials: descriptors(input.allow) }),
    });
    return { challenge: options.challenge, options: options as unknown as CeremonyOptions };
  }

  challengeOf(response: CredentialJson): string | null {
    const challenge = clientData(response)?.['challenge'];
    return typeof challenge === 'string' && challenge !== '' ? challenge : null;
  }

  assertionClaim(response: CredentialJson): AssertionClaim | null {
    const id = response['id'];
    const inner = response['response'];
    if (typeof id !== 'string' || id === '' || typeof inner !== 'object' || inner === null) return null;
    const handle = (inner as Record<string, unknown>)['userHandle'];
    if (handle === undefined || handle === null || handle === '') return { credentialId: id, userId: null };
    if (typeof handle !== 'string' || !isoBase64URL.isBase64URL(handle)) return null;
    return { credentialId: id, userId: isoBase64URL.toUTF8String(handle) };
  }

  async verifyRegistration(input: {
    response: CredentialJson;
    challenge: string;
    rp: RelyingParty;
  }): Promise<Verdict<NewCredential>> {
    try {
      const result = await verifyRegistrationResponse({
        response: input.response as unknown as RegistrationResponseJSON,
        expectedChallenge: input.challenge,
        expectedOrigin: input.rp.origin,
        expectedRPID: input.rp.id,
        requireUserVerification: false,
      });
      if (!result.verified) return { ok: false, reason: 'The attestation could not be verified' };
      const { credential, userVerified } = result.registrationInfo;
      const sent = (input.response['response'] as Record<string, unknown> | undefined)?.['transports'];
      return {
        ok: true,
        value: {
          credentialId: credential.id,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: credential.counter,
          transports: knownTransports(credential.transports ?? sent),
          userVerified,
        },
      };
    } catch (err) {
      return refused(err);
    }
  }

  async verifyAuthentication(input: {
    response: CredentialJson;
    challenge: string;
    rp: RelyingParty;
    credential: StoredCredential;
  }): Promise<Verdict<{ newCounter: number; userVerified: boolean }>> {
    try {
      const result = await verifyAuthenticationResponse({
        response: input.response as unknown as AuthenticationResponseJSON,
        expectedChallenge: input.challenge,
        expectedOrigin: input.rp.origin,
        expectedRPID: input.rp.id,
        credential: {
          id: input.credential.credentialId,
          publicKey: isoBase64URL.toBuffer(input.credential.publicKey),
          counter: input.credential.counter,
          transports: knownTransports(input.credential.transports),
        },
        requireUserVerification: false,
      });
      if (!result.verified) return { ok: false, reason: 'The signature is wrong' };
      const { newCounter, userVerified } = result.authenticationInfo;
      return { ok: true, value: { newCounter, userVerified } };
    } catch (err) {
      return refused(err);
    }
  }
}
