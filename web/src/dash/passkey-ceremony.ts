import {
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { ceremonySentence, type Ceremony } from './error-words.js';

/** Whether the page was opened at an IP address (`192.0.2.1`, `[::1]`): no WebAuthn RP id can be one. */
export const openedAtIpAddress = (): boolean => /^(\d{1,3}(\.\d{1,3}){3}|\[[\da-f:.]+\])$/i.test(location.hostname);

/**
 * Whether this page can use passkeys at all. Browsers without WebAuthn have no PublicKeyCredential, and neither has
 * a page outside a secure context (plain http to anything but localhost); a page opened at an IP address has one,
 * but every ceremony would fail there (the server refuses, and so would the browser). In each case the passkey
 * buttons stay hidden.
 */
export const passkeysAvailable = (): boolean => typeof window.PublicKeyCredential === 'function' && !openedAtIpAddress();

/** The browser's or the person's refusal, already said as a sentence for people (error-words.ts). */
export class CeremonyError extends Error {
  constructor(
    /** The DOMException's name (NotAllowedError, InvalidStateError, ...) or `Unsupported`. */
    readonly reason: string,
    ceremony: Ceremony,
  ) {
    super(ceremonySentence(reason, ceremony));
    this.name = 'CeremonyError';
  }
}

/**
 * @simplewebauthn/browser keeps the DOMException's name on its WebAuthnError; a browser without WebAuthn throws a
 * plain Error. What the browser said in detail stays out of the page: its wording differs from browser to browser.
 */
function refusal(err: unknown, ceremony: Ceremony): CeremonyError {
  const name = err instanceof Error ? err.name : '';
  const reason = !passkeysAvailable() ? 'Unsupported' : name === 'Error' || name === '' ? 'UnknownError' : name;
  return new CeremonyError(reason, ceremony);
}

/** Asks the browser to make a passkey with the server's registration options. */
export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
  try {
    return await startRegistration({ optionsJSON });
  } catch (err) {
    throw refusal(err, 'add');
  }
}

/** Asks the browser for a passkey that answers the server's challenge (any of this site's, or the ones listed). */
export async function answerWithPasskey(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
  ceremony: Exclude<Ceremony, 'add'>,
): Promise<AuthenticationResponseJSON> {
  try {
    return await startAuthentication({ optionsJSON });
  } catch (err) {
    throw refusal(err, ceremony);
  }
}
