/**
 * The character tables both sides of multipart read: the byte-level parser (multipart-parser.ts) and the reader of
 * header values (part-headers.ts).
 */

/** What a boundary may hold: printable ASCII and tab (RFC 2046 boundaries are ASCII). */
export const BOUNDARY_TEXT = /^[\x20-\x7e\t]*$/;

/** 1 at the code of every RFC 9110 token character, 0 elsewhere: one lookup per byte in the parser's header loop. */
export const TOKEN = new Uint8Array(256);
for (const char of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  TOKEN[char.charCodeAt(0)] = 1;
}

/** An RFC 9110 token character (of a header name, a type, a parameter name); any code, in or out of a byte's range. */
export const isTokenChar = (code: number): boolean => TOKEN[code] === 1;
