const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Node reads header bytes as latin1. A client that sent UTF-8 (curl, most libraries) gets its text back; bytes that
 * are not valid UTF-8 were meant as latin1 and stay as they are.
 */
export function headerText(raw: string): string {
  if (!/[\u0080-\u00ff]/.test(raw)) return raw;
  try {
    return utf8.decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}
