export const IdGenerator = Symbol('IdGenerator');
/** Opaque identifiers from a CSPRNG, URL-safe. */
export interface IdGenerator {
  /** An id for a stored record (user, file, folder, ...). */
  newId(): string;
  /** A public share link id: at least 128 bits of entropy. */
  newShareId(): string;
}
