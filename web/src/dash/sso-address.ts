/**
 * The reason in `?ssoError=`, as the server's redirect left it, if any: read once and taken off the address at once
 * (the page stays where it is), so a reload does not repeat the sentence (sso-words.ts says it).
 */
export function takeSsoError(): string | null {
  const url = new URL(location.href);
  const reason = url.searchParams.get('ssoError');
  if (reason === null) return null;
  url.searchParams.delete('ssoError');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  return reason;
}
