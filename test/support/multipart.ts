/** A multipart/form-data body written byte for byte, so tests can send what no FormData would (NUL, CR/LF, `*=`). */
export const BOUNDARY = 'COFFER-TEST-BOUNDARY';

export interface RawPart {
  /** The whole Content-Disposition value after `form-data; `, e.g. `name="file"; filename*=UTF-8''a%0Ab`. */
  disposition: string;
  type?: string;
  content: string | Buffer;
}

export function multipartBody(parts: RawPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; ${part.disposition}\r\n`;
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** `filename*=UTF-8''…`: percent-encoded, so any character at all (control characters too) reaches the server. */
export const encodedFilename = (name: string) => `name="file"; filename*=UTF-8''${encodeURIComponent(name)}`;
