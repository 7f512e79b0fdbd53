export const TokenSecrets = Symbol('TokenSecrets');
/** Session and API token secrets: 256 bits, handed out once, stored only as a hash. */
export interface TokenSecrets {
  newSecret(): string;
  /** A deterministic, one-way digest used to look a presented token up. */
  hash(secret: string): string;
}
