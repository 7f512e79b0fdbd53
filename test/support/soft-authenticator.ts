import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

type CBORType = Parameters<typeof isoCBOR.encode>[0];

/*
 * A WebAuthn authenticator in Node, for tests: ES256 (ECDSA P-256) credentials, authenticator data written byte by
 * byte as WebAuthn Level 2 §6.1 lays it out, attestation format "none" in CBOR, and signatures over
 * authenticatorData || SHA-256(clientDataJSON). It plays the browser's part too (clientDataJSON), so a test can
 * make it lie about the origin, the RP id, the challenge or the user handle, drop user verification, or sign
 * with a counter that went backwards.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const AAGUID = new Uint8Array(16);

/** The options JSON the server hands out, as far as an authenticator reads it. */
export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}
export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

/** What one ceremony may be made to say instead of the truth. */
export interface Lies {
  /** The page's origin (clientDataJSON.origin); default `https://<rp id>` unless the authenticator was given one. */
  origin?: string;
  /** The RP id whose hash goes into the authenticator data. */
  rpId?: string;
  /** The challenge clientDataJSON carries. */
  challenge?: string;
  /** clientDataJSON.type. */
  type?: string;
  /** Sign without the user verified flag (a security key without PIN). */
  noUserVerification?: boolean;
  /** The user handle an assertion carries (base64url); null leaves it out. */
  userHandle?: string | null;
  /** Corrupts the signature. */
  badSignature?: boolean;
}

interface Credential {
  id: string;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts.map((part) => Buffer.from(part))));
}

function uint32(value: number): Uint8Array {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return new Uint8Array(out);
}

/** The credential's public key as a COSE_Key (RFC 9053): EC2, ES256, P-256, x and y. */
function coseKey(privateKey: KeyObject): Uint8Array {
  const jwk = privateKey.export({ format: 'jwk' });
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, isoBase64URL.toBuffer(jwk.x!)],
    [-3, isoBase64URL.toBuffer(jwk.y!)],
  ]);
  return isoCBOR.encode(cose);
}

export class SoftAuthenticator {
  private readonly credentials = new Map<string, Credential>();

  /**
   * `origin`: the page the browser is on; `counterStep`: how far the signature counter moves per use (0: an
   * authenticator without a counter, as many platform passkeys are).
   */
  constructor(
    private readonly origin: string | null = null,
    private readonly counterStep = 1,
  ) {}

  /** A copy holding the same keys and counters: a cloned authenticator. */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator(this.origin, this.counterStep);
    for (const [id, credential] of this.credentials) copy.credentials.set(id, { ...credential });
    return copy;
  }

  /** The ids of the credentials it holds, oldest first. */
  ids(): string[] {
    return [...this.credentials.keys()];
  }

  /** navigator.credentials.create(): a new credential, and the registration response the browser would send. */
  create(options: CreationOptions, lies: Lies & { reuse?: string } = {}) {
    const rpId = lies.rpId ?? options.rp.id!;
    for (const excluded of options.excludeCredentials ?? []) {
      if (this.credentials.has(excluded.id) && lies.reuse === undefined) {
        throw new Error('InvalidStateError: this authenticator holds an excluded credential');
      }
    }
    const reused = lies.reuse === undefined ? undefined : this.credentials.get(lies.reuse);
    const id = reused?.id ?? b64(randomBytes(32));
    const privateKey = reused?.privateKey ?? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const credential: Credential = { id, privateKey, rpId, userHandle: options.user.id, counter: 0 };
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, rpId, lies);
    const idBytes = isoBase64URL.toBuffer(id);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const authData = concat(
      sha256(rpId),
      new Uint8Array([this.flags(lies) | FLAG_AT]),
      uint32(credential.counter),
      AAGUID,
      new Uint8Array(idLength),
      idBytes,
      coseKey(privateKey),
    );
    const attestation = new Map<string, CBORType>();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map<string, CBORType>());
    attestation.set('authData', authData);
    const attestationObject = isoCBOR.encode(attestation);
    this.credentials.set(id, credential);
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get(): an assertion by `credentialId` (by default the first allowed credential it holds,
   * or its first one for a discoverable sign-in). The counter moves on by counterStep.
   */
  get(options: RequestOptions, lies: Lies & { credentialId?: string } = {}) {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? this.ids();
    const id = lies.credentialId ?? allowed.find((candidate) => this.credentials.has(candidate));
    const credential = id === undefined ? undefined : this.credentials.get(id);
    if (!credential) throw new Error('NotAllowedError: no credential of this authenticator may answer');
    credential.counter += this.counterStep;
    const rpId = lies.rpId ?? options.rpId ?? credential.rpId;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, rpId, lies);
    const authData = concat(sha256(rpId), new Uint8Array([this.flags(lies)]), uint32(credential.counter));
    const signature = new Uint8Array(sign('sha256', concat(authData, sha256(clientDataJSON)), credential.privateKey));
    if (lies.badSignature) signature[signature.length - 1]! ^= 0xff;
    const userHandle = lies.userHandle === undefined ? credential.userHandle : lies.userHandle;
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private flags(lies: Lies): number {
    return FLAG_UP | (lies.noUserVerification ? 0 : FLAG_UV);
  }

  private clientData(type: string, challenge: string, rpId: string, lies: Lies): Uint8Array {
    const origin = lies.origin ?? this.origin ?? `https://${rpId}`;
    const data = { type: lies.type ?? type, challenge: lies.challenge ?? challenge, origin, crossOrigin: false };
    return new TextEncoder().encode(JSON.stringify(data));
  }
}
