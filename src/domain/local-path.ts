/**
 * Whether `next` (where a sign-in goes afterwards) is a path on our own origin: it starts with one `/` followed by
 * something that is not `/` or `\` (`//host` and `/\host` are other hosts to a browser), and holds no control
 * character, space or backslash a browser might read its own way. Anything else is ignored and the sign-in goes to `/`.
 */
export function isLocalPath(next: string): boolean {
  if (next.length === 0 || next.length > 2048 || next[0] !== '/') return false;
  if (next[1] === '/' || next[1] === '\\') return false;
  for (const char of next) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || char === '\\') return false;
  }
  return true;
}
