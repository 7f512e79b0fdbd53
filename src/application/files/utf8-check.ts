/**
 * Watches bytes go by and tells whether they were valid UTF-8 as a whole. Sequences split across chunks are
 * carried over (the decoder streams); after the first invalid byte it stops looking.
 */
export class Utf8Check {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private valid = true;

  see(chunk: Uint8Array): void {
    if (!this.valid) return;
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.valid = false;
    }
  }

  /** Whether everything seen was valid UTF-8; a sequence cut off at the end is not. */
  end(): boolean {
    if (!this.valid) return false;
    try {
      this.decoder.decode();
      return true;
    } catch {
      return false;
    }
  }

  /** Passes the bytes on unchanged, seeing each chunk. */
  async *watch(content: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    for await (const chunk of content) {
      this.see(chunk);
      yield chunk;
    }
  }
}
