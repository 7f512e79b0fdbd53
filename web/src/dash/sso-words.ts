/**
 * Why a single sign-on came back unfinished, as the server names it in `?ssoError=` (docs/API.md, "Single sign-on"),
 * in a sentence for people (sso-address.ts takes it off the address).
 */
const SENTENCES: Record<string, string> = {
  denied: 'The sign-in was cancelled or refused at the single sign-on provider.',
  rejected: 'The single sign-on provider’s answer did not pass Coffer’s checks, so you were not signed in. Try again; if it keeps happening, tell your admin.',
  unavailable: 'Single sign-on is unavailable right now: the provider cannot be reached. Try again in a moment.',
  expired: 'That sign-in took too long or was already used. Start it again.',
  unknown_user: 'There is no Coffer account for you yet, and new ones are not made automatically. Ask an admin to create or link one.',
  taken: 'That single sign-on account is already linked to another Coffer account.',
  signed_out: 'Sign in first, then link your single sign-on account here.',
  off: 'Single sign-on is not set up on this server.',
  failed: 'Something went wrong with single sign-on. Try again; if it keeps happening, tell your admin.',
};

export function ssoSentence(reason: string): string {
  return SENTENCES[reason] ?? SENTENCES['failed']!;
}

/** Where a button starts a single sign-on: the server's start, coming back to `next` (a path of this page). */
export function ssoStartUrl(next: string, intent: 'login' | 'link' = 'login'): string {
  const query = new URLSearchParams({ next });
  if (intent === 'link') query.set('intent', 'link');
  return `/api/auth/oidc/start?${query}`;
}
