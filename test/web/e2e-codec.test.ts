import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from '../../web/src/common/e2e/base64url.js';
import { EceError, RECORD_SIZE, cipherLength, decryptStream, encryptStream } from '../../web/src/common/e2e/ece.js';
import { keyFragment, keyFromFragment, newFileKey } from '../../web/src/common/e2e/file-key.js';
import { openMetadata, sealMetadata } from '../../web/src/common/e2e/metadata.js';
import { decryptBytes, encryptBytes } from '../../web/src/common/e2e/whole.js';

const b64 = (text: string) => fromBase64Url(text)!;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const HEADER = 21;
const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(EceError);

describe('RFC 8188 examples', () => {
  it('§3.1: one record, rs 4096, decrypts to "I am the walrus", and our encryption with its salt writes it exactly', async () => {
    const ikm = b64('yqdlZ-tYemfogSmv7Ws5PQ');
    const message = b64('I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg');
    expect(text(await decryptBytes(ikm, message))).toBe('I am the walrus');
    const salt = message.subarray(0, 16);
    const ours = await encryptBytes(ikm, new TextEncoder().encode('I am the walrus'), { salt, rs: 4096 });
    expect(toBase64Url(ours)).toBe(toBase64Url(message));
  });

  it('§3.2: two records, rs 25, key id "a1", one padding octet in the first, decrypts to "I am the walrus"', async () => {
    const ikm = b64('BO3ZVPxUlnLORbVGMpbT1Q');
    const message = b64(
      'uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA',
    );
    expect(message.length).toBe(73);
    expect(text(message.subarray(21, 23))).toBe('a1');
    expect(text(await decryptBytes(ikm, message))).toBe('I am the walrus');
  });

  it('refuses the examples under another key', async () => {
    const message = b64('I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg');
    await refused(decryptBytes(b64('BO3ZVPxUlnLORbVGMpbT1Q'), message));
  });
});

describe('round trips at the record boundaries', () => {
  const capacity = RECORD_SIZE - 17;
  for (const size of [0, 1, capacity - 1, capacity, capacity + 1, 65_535, 65_536, 65_537, 3 * capacity + 5]) {
    it(`${size} bytes: the ciphertext is as long as cipherLength says and decrypts to the same bytes`, async () => {
      const key = newFileKey();
      const plain = randomBytes(size);
      const sealed = await encryptBytes(key, plain);
      expect(sealed.length).toBe(cipherLength(size));
      expect(new DataView(sealed.buffer).getUint32(16)).toBe(RECORD_SIZE);
      expect(sealed[20]).toBe(0);
      expect(Buffer.from(await decryptBytes(key, sealed)).equals(plain)).toBe(true);
    });
  }

  it('streams: chunks of any size in, the same plaintext out, through both transforms at once', async () => {
    const key = newFileKey();
    const plain = randomBytes(5 * RECORD_SIZE + 123);
    let at = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= plain.length) return controller.close();
        const n = 1 + ((at * 7919) % 40_000);
        controller.enqueue(plain.subarray(at, at + n));
        at += n;
      },
    });
    const hash = createHash('sha256');
    const reader = source.pipeThrough(encryptStream(key)).pipeThrough(decryptStream(key)).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      hash.update(value);
    }
    expect(hash.digest('hex')).toBe(createHash('sha256').update(plain).digest('hex'));
  });
});

describe('refusals', () => {
  const key = newFileKey();
  const threeRecords = async () => encryptBytes(key, randomBytes(2 * (RECORD_SIZE - 17) + 100));
  const record = (message: Uint8Array, i: number) => message.subarray(HEADER + i * RECORD_SIZE, HEADER + (i + 1) * RECORD_SIZE);
  const join = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

  it('a changed byte, in a record or in the salt', async () => {
    const message = await threeRecords();
    expect((await decryptBytes(key, message)).length).toBeGreaterThan(0);
    for (const at of [HEADER + RECORD_SIZE + 10, message.length - 1, 3]) {
      const changed = message.slice();
      changed[at]! ^= 1;
      await refused(decryptBytes(key, changed));
    }
  });

  it('a dropped record', async () => {
    const message = await threeRecords();
    await refused(decryptBytes(key, join(message.subarray(0, HEADER), record(message, 0), message.subarray(HEADER + 2 * RECORD_SIZE))));
    await refused(decryptBytes(key, join(message.subarray(0, HEADER), record(message, 1), message.subarray(HEADER + 2 * RECORD_SIZE))));
  });

  it('reordered records', async () => {
    const message = await threeRecords();
    await refused(decryptBytes(key, join(message.subarray(0, HEADER), record(message, 1), record(message, 0), message.subarray(HEADER + 2 * RECORD_SIZE))));
  });

  it('a truncated file: at a record boundary, inside a record, inside the header, or with no record', async () => {
    const message = await threeRecords();
    await refused(decryptBytes(key, message.subarray(0, HEADER + 2 * RECORD_SIZE)));
    await refused(decryptBytes(key, message.subarray(0, HEADER + RECORD_SIZE + 500)));
    await refused(decryptBytes(key, message.subarray(0, message.length - 1)));
    await refused(decryptBytes(key, message.subarray(0, 10)));
    await refused(decryptBytes(key, message.subarray(0, HEADER)));
  });

  it('a last record followed by more: two messages glued together', async () => {
    const one = await encryptBytes(key, new Uint8Array(10), { rs: 64 });
    const two = await encryptBytes(key, new Uint8Array(10), { rs: 64, salt: one.subarray(0, 16) });
    await refused(decryptBytes(key, join(one, two.subarray(HEADER))));
  });

  it('a record size the reader will not hold', async () => {
    const message = (await threeRecords()).slice();
    new DataView(message.buffer).setUint32(16, 0xffffffff);
    await refused(decryptBytes(key, message));
  });
});

describe('keys and metadata', () => {
  it('the link fragment carries the key and nothing else reads as one', () => {
    const key = newFileKey();
    expect(keyFragment(key)).toMatch(/^#k=[A-Za-z0-9_-]{22}$/);
    expect(keyFromFragment(keyFragment(key))).toEqual(key);
    expect(keyFromFragment('')).toBeNull();
    expect(keyFromFragment('#k=abc')).toBeNull();
    expect(keyFromFragment('#k=' + '*'.repeat(22))).toBeNull();
  });

  it('the metadata object round-trips and is refused under another key', async () => {
    const key = newFileKey();
    const sealed = await sealMetadata(key, { name: 'Ünïcode report.pdf', type: 'application/pdf', size: 12345 });
    expect(sealed).not.toContain('report');
    expect(await openMetadata(key, sealed)).toEqual({ name: 'Ünïcode report.pdf', type: 'application/pdf', size: 12345 });
    await refused(openMetadata(newFileKey(), sealed));
  });
});
