/** A registered passkey (a WebAuthn credential) of a user. */
export interface Passkey {
  /** Our id for it (the API's); the credential id is the authenticator's. */
  id: string;
  userId: string;
  /** base64url; unique across every user. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last accepted. */
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export const PasskeyRepository = Symbol('PasskeyRepository');

/**
 * The passkeys themselves. How many a user has is counted on the second-factor record (SecondFactorRepository's
 * passkey slots), so a sign-in reads one record to know the factors; a user has at most a few, never paged.
 */
export interface PasskeyRepository {
  /** False, writing nothing, when a passkey with this credential id exists (whoever's it is). */
  insert(passkey: Passkey): Promise<boolean>;
  /** The user's passkeys, oldest first. */
  listByUser(userId: string): Promise<Passkey[]>;
  findByCredentialId(credentialId: string): Promise<Passkey | null>;
  /** Renames the user's passkey; null when the user has none with this id. */
  rename(userId: string, id: string, name: string): Promise<Passkey | null>;
  /**
   * Records a sign-in: the new counter and when, only while the stored counter is still `counter` (what the check
   * read); false otherwise, so two sign-ins with one assertion (or two clones racing) cannot both pass.
   */
  recordUse(id: string, counter: number, newCounter: number, at: Date): Promise<boolean>;
  /** Deletes the user's passkey; false when the user has none with this id. */
  delete(userId: string, id: string): Promise<boolean>;
  /** Deletes every passkey of the user; how many there were. */
  deleteByUser(userId: string): Promise<number>;
}
