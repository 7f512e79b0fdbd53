/**
 * The `aes128gcm` content coding of RFC 8188, streaming, on WebCrypto alone (`globalThis.crypto.subtle`), so the
 * browser pages, the service worker and the `coffer-e2e` command run the same code. docs/API.md, "End-to-end
 * encrypted files", describes the format as Coffer writes it.
 */

/** The record size Coffer writes; a reader takes whatever the header says, within READ_RS_MAX. */
export const RECORD_SIZE = 65_536;
const TAG = 16;
const SALT = 16;
const HEADER = SALT + 4 + 1;
/** The largest record size a reader accepts: a record is held whole before it is checked. */
const READ_RS_MAX = 1 << 24;
const KEY_INFO = 'Content-Encoding: aes128gcm\0';
const NONCE_INFO = 'Content-Encoding: nonce\0';

/** Why a stream was refused: a changed, dropped, reordered or truncated record, a wrong key, or a bad header. */
export class EceError extends Error {
  override name = 'EceError';
}

type Bytes = Uint8Array<ArrayBuffer>;
const subtle = () => globalThis.crypto.subtle;
const utf8 = (text: string) => new TextEncoder().encode(text);

/** The plaintext bytes one record of `rs` holds (the rest is the delimiter and the tag). */
export const recordCapacity = (rs: number) => rs - TAG - 1;

/** How long Coffer's ciphertext of `plainLength` bytes is: the header, and each record's delimiter and tag. */
export function cipherLength(plainLength: number, rs = RECORD_SIZE): number {
  const records = Math.max(1, Math.ceil(plainLength / recordCapacity(rs)));
  return HEADER + plainLength + records * (TAG + 1);
}

/** CryptoKey, named so in the DOM's types and in Node's alike. */
type AesKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

interface RecordKeys {
  key: AesKey;
  nonceBase: Bytes;
}

async function recordKeys(ikm: Uint8Array, salt: Uint8Array): Promise<RecordKeys> {
  const base = await subtle().importKey('raw', copy(ikm), 'HKDF', false, ['deriveBits']);
  const derive = (info: string, bits: number) =>
    subtle().deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: copy(salt), info: utf8(info) }, base, bits);
  const [cek, nonce] = await Promise.all([derive(KEY_INFO, 128), derive(NONCE_INFO, 96)]);
  const key = await subtle().importKey('raw', cek, 'AES-GCM', false, ['encrypt', 'decrypt']);
  return { key, nonceBase: new Uint8Array(nonce) };
}

/** RFC 8188 §2.3: the record's sequence number, as a 96-bit big-endian integer, XORed into the nonce. */
function nonceFor(base: Bytes, seq: number): Bytes {
  const nonce = base.slice();
  let rest = seq;
  for (let i = nonce.length - 1; rest > 0 && i >= 0; i--) {
    nonce[i]! ^= rest % 256;
    rest = Math.floor(rest / 256);
  }
  return nonce;
}

function copy(bytes: Uint8Array): Bytes {
  return new Uint8Array(bytes);
}

/** Bytes gathered from a stream's chunks, taken from the front without copying more than asked. */
class Gather {
  private chunks: Uint8Array[] = [];
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The first `n` bytes (n ≤ length), removed, with `room` spare bytes after them. */
  take(n: number, room = 0): Bytes {
    const out = new Uint8Array(n + room);
    let at = 0;
    while (at < n) {
      const head = this.chunks[0]!;
      const part = Math.min(head.length, n - at);
      out.set(part === head.length ? head : head.subarray(0, part), at);
      at += part;
      if (part === head.length) this.chunks.shift();
      else this.chunks[0] = head.subarray(part);
    }
    this.length -= n;
    return out;
  }
}

export interface EncryptOptions {
  /** The 16-byte salt of the header; a fresh random one when absent (tests pin it). */
  salt?: Uint8Array;
  rs?: number;
}

/**
 * Plaintext in, ciphertext out: the header, then records of `rs` bytes, each sealed as soon as the next byte shows
 * it is not the last (delimiter 0x01); the last (delimiter 0x02, no padding) when the input ends. Nothing larger
 * than two records is held.
 */
export function encryptStream(ikm: Uint8Array, options: EncryptOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const rs = options.rs ?? RECORD_SIZE;
  const capacity = recordCapacity(rs);
  const salt = options.salt ? copy(options.salt) : globalThis.crypto.getRandomValues(new Uint8Array(SALT));
  const pending = new Gather();
  let keys: RecordKeys;
  let seq = 0;
  const seal = async (controller: TransformStreamDefaultController<Uint8Array>, last: boolean) => {
    const plain = pending.take(Math.min(capacity, pending.length), 1);
    plain[plain.length - 1] = last ? 2 : 1;
    const sealed = await subtle().encrypt({ name: 'AES-GCM', iv: nonceFor(keys.nonceBase, seq++) }, keys.key, plain);
    controller.enqueue(new Uint8Array(sealed));
  };
  return new TransformStream({
    async start(controller) {
      if (salt.length !== SALT) throw new EceError('The salt is 16 bytes');
      keys = await recordKeys(ikm, salt);
      const header = new Uint8Array(HEADER);
      header.set(salt);
      new DataView(header.buffer).setUint32(SALT, rs);
      controller.enqueue(header);
    },
    async transform(chunk, controller) {
      pending.push(chunk);
      while (pending.length > capacity) await seal(controller, false);
    },
    async flush(controller) {
      await seal(controller, true);
    },
  });
}

/** Where a header's fields stand: salt, record size, key id (RFC 8188 §2.1). */
function readHeader(head: Gather): { salt: Bytes; rs: number; keyid: Bytes } | null {
  if (head.length < HEADER) return null;
  const fixed = head.take(HEADER);
  const rs = new DataView(fixed.buffer).getUint32(SALT);
  const idlen = fixed[HEADER - 1]!;
  if (rs < TAG + 2 || rs > READ_RS_MAX) throw new EceError(`A record size of ${rs} is not accepted`);
  return { salt: fixed.slice(0, SALT), rs, keyid: new Uint8Array(idlen) };
}

/**
 * Ciphertext in, plaintext out, every record checked before any of its bytes leave: a changed byte fails its tag;
 * a dropped or reordered record fails too (its nonce is its position); a record delimited as last that is not, or a
 * stream that ends after a record delimited as not last, is refused. The stream errors with an EceError.
 */
export function decryptStream(ikm: Uint8Array): TransformStream<Uint8Array, Uint8Array> {
  const input = new Gather();
  let header: { rs: number; keyid: Bytes; salt: Bytes } | null = null;
  let keyidRead = false;
  let keys: RecordKeys | null = null;
  let seq = 0;
  let ended = false;
  const open = async (controller: TransformStreamDefaultController<Uint8Array>, record: Bytes, last: boolean) => {
    if (ended) throw new EceError('Records follow the last record');
    let plain: Uint8Array;
    try {
      plain = new Uint8Array(
        await subtle().decrypt({ name: 'AES-GCM', iv: nonceFor(keys!.nonceBase, seq++) }, keys!.key, record),
      );
    } catch {
      throw new EceError('A record does not decrypt: the key is wrong, or the data was changed, cut or reordered');
    }
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    if (end < 0) throw new EceError('A record has no delimiter');
    const delimiter = plain[end];
    if (last ? delimiter !== 2 : delimiter !== 1) {
      throw new EceError(last ? 'The data ends before its last record: it was truncated' : 'A record delimited as last is followed by more');
    }
    if (last) ended = true;
    if (end > 0) controller.enqueue(plain.subarray(0, end));
  };
  const ready = async (): Promise<boolean> => {
    header ??= readHeader(input);
    if (!header) return false;
    if (!keyidRead) {
      if (input.length < header.keyid.length) return false;
      header.keyid = input.take(header.keyid.length);
      keyidRead = true;
    }
    keys ??= await recordKeys(ikm, header.salt);
    return true;
  };
  return new TransformStream({
    async transform(chunk, controller) {
      input.push(chunk);
      if (!(await ready())) return;
      // A record is known not to be the last once a byte beyond it has come.
      while (input.length > header!.rs) await open(controller, input.take(header!.rs), false);
    },
    async flush(controller) {
      if (!(await ready())) throw new EceError('The data ends inside its header');
      // Every full record is taken only once a byte beyond it came, so nothing left means no record at all.
      if (input.length === 0) throw new EceError('The data ends before its last record: it was truncated');
      if (input.length <= TAG) throw new EceError('The last record is too short');
      await open(controller, input.take(input.length), true);
    },
  });
}
