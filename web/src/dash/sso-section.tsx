import { useEffect, useState } from 'preact/hooks';
import { api, type MeView, type ProvidersView } from './api.js';
import { takeSsoError } from './sso-address.js';
import { ssoSentence, ssoStartUrl } from './sso-words.js';
import { ConfirmButton, ErrorNote, Section, useAction } from './ui.js';

/**
 * Account → Single sign-on: the identity linked to this account, with Unlink (only while a password remains to sign in
 * with), or Link, which goes to the provider and comes back here. Shown when single sign-on is set up, or an identity
 * is linked.
 */
export function SsoSection({ me }: { me: MeView }) {
  const [linkError] = useState(takeSsoError);
  const [providers, setProviders] = useState<ProvidersView | null>(null);
  const [linked, setLinked] = useState(me.oidc);
  const [, error, run] = useAction();
  useEffect(() => {
    api.providers().then(setProviders, () => undefined);
  }, []);
  const sso = providers?.oidc ?? null;
  if (!sso && !linked) return null;
  const label = sso?.label ?? 'single sign-on';

  return (
    <Section title="Single sign-on">
      {linkError !== null && (
        <p class="problem" role="alert">
          {ssoSentence(linkError)}
        </p>
      )}
      {linked ? (
        <>
          <p>
            Linked: you can sign in with {label}.{' '}
            <span class="muted">
              Account <code>{linked.subject}</code> at {linked.issuer}
            </span>
          </p>
          {me.hasPassword ? (
            <div class="row">
              <ConfirmButton
                label="Unlink"
                confirm={`Unlink ${label}? You will sign in with your password only.`}
                onConfirm={() => run(async () => (await api.unlinkSso(), setLinked(null)))}
              />
            </div>
          ) : (
            <p class="note">
              Your account has no Coffer password, so {label} is your only way in and cannot be unlinked. An admin can
              set a password for you.
            </p>
          )}
        </>
      ) : (
        <>
          <p>Not linked. Link your {label} account to sign in with it.</p>
          {sso?.available ? (
            <div class="row">
              <a class="button" href={ssoStartUrl('/account', 'link')}>
                Link {label} account
              </a>
            </div>
          ) : (
            <p class="note">Single sign-on is unavailable right now: the provider cannot be reached.</p>
          )}
        </>
      )}
      <ErrorNote error={error} />
    </Section>
  );
}
