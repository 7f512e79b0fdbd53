export const TokenSecrets = Symbol('TokenSecrets');
/** Session and API token secrets: 256 bits, handed out once, stored only as a hash. */
export interface TokenSecrets {
  newSecret(): string;
  /** A deterministic, one-way digest used to look a presented token up. */
  hash(secret: string): string;
  /** A keyed digest (HMAC) of `message`: only a holder of `key` can make one that `macMatches` accepts. */
  mac(key: string, message: string): string;
  /** Whether `mac` is the keyed digest of `message`, compared in constant time. */
  macMatches(key: string, message: string, mac: string): boolean;
}
