import { useEffect, useState } from 'preact/hooks';
import { Message } from '../common/message.js';
import { AccountPage } from './account-page.js';
import { ActivityPage } from './activity-page.js';
import { WebhooksPage } from './webhooks-page.js';
import { AdminPage } from './admin-page.js';
import { api, type MeView, type Persistence } from './api.js';
import { CollectionPage, CollectionsPage } from './collections-page.js';
import { FilesPage } from './files/files-page.js';
import { FirstPassword } from './first-password.js';
import { MemoryBanner } from './memory-banner.js';
import { PastesPage } from './pastes-page.js';
import { RequestsPage } from './requests-page.js';
import { navigate, onNavigate, viewOf, viewParam, type View } from './routes.js';
import { SharesPage } from './shares-page.js';
import { SignIn } from './sign-in.js';
import { TokensPage } from './tokens-page.js';
import { ErrorNote, Link } from './ui.js';
import { UsagePage } from './usage-page.js';

type Session = { state: 'loading' } | { state: 'out'; registration: boolean } | { state: 'in'; me: MeView } | { state: 'failed'; error: unknown };

const NAV: { href: string; label: string; admin?: boolean }[] = [
  { href: '/', label: 'Files' },
  { href: '/shares', label: 'Shares' },
  { href: '/pastes', label: 'Pastes' },
  { href: '/requests', label: 'Requests' },
  { href: '/collections', label: 'Collections' },
  { href: '/usage', label: 'Usage' },
  { href: '/activity', label: 'Activity' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/tokens', label: 'API tokens' },
  { href: '/account', label: 'Account' },
  { href: '/admin', label: 'Admin', admin: true },
];

/** The address's path and the item open in the viewer (`?view=`), followed as the dashboard navigates. */
function useAddress(): { path: string; viewId: string | null } {
  const read = () => ({ path: location.pathname, viewId: viewParam() });
  const [address, setAddress] = useState(read);
  useEffect(() => onNavigate(() => setAddress(read())), []);
  return address;
}

function Page({ view, me, viewId }: { view: View | null; me: MeView; viewId: string | null }) {
  if (!view) return <Message title="Page not found">There is nothing at this address.</Message>;
  switch (view.name) {
    case 'files':
      return <FilesPage folderId={view.folderId} viewId={viewId} />;
    case 'collection':
      return <CollectionPage id={view.id} viewId={viewId} />;
    case 'shares':
      return <SharesPage />;
    case 'pastes':
      return <PastesPage viewId={viewId} />;
    case 'requests':
      return <RequestsPage />;
    case 'collections':
      return <CollectionsPage />;
    case 'usage':
      return <UsagePage />;
    case 'tokens':
      return <TokensPage />;
    case 'account':
      return <AccountPage me={me} />;
    case 'activity':
      return <ActivityPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'admin':
      return me.type === 'admin' ? <AdminPage me={me} /> : <Message title="Admins only">Ask an admin.</Message>;
  }
}

export function Dashboard() {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const [persistence, setPersistence] = useState<Persistence | null>(null);
  const { path, viewId } = useAddress();

  const load = () =>
    api.session().then(
      ({ user, registration, persistence }) => {
        setPersistence(persistence);
        setSession(user ? { state: 'in', me: user } : { state: 'out', registration });
      },
      (error: unknown) => setSession({ state: 'failed', error }),
    );
  useEffect(() => void load(), []);

  const banner = persistence === 'memory' && <MemoryBanner />;
  if (session.state === 'loading') return <p class="page">Loading…</p>;
  if (session.state === 'failed') return <main class="page"><ErrorNote error={session.error} /></main>;
  if (session.state === 'out') {
    return (
      <>
        {banner}
        <SignIn registration={session.registration} onSignedIn={(me) => setSession({ state: 'in', me })} />
      </>
    );
  }

  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    // Signed out first, then home: the other way round, the files page would ask for the root without a session.
    await load();
    navigate('/');
  };
  if (session.me.mustChangePassword) {
    return (
      <>
        {banner}
        <FirstPassword me={session.me} onChanged={() => void load()} onSignOut={() => void signOut()} />
      </>
    );
  }
  const current = (href: string) => (href === '/' ? path === '/' || path.startsWith('/files/') : path.startsWith(href));

  return (
    <>
      {banner}
      <header class="site-header dash-header">
        <span class="brand">Coffer</span>
        <nav aria-label="Sections" class="dash-nav">
          {NAV.filter((item) => !item.admin || session.me.type === 'admin').map((item) => (
            <Link key={item.href} href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <span class="who">
          {session.me.username}
          <button type="button" class="link-button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" class="page wide">
        <Page view={viewOf(path)} me={session.me} viewId={viewId} />
      </main>
    </>
  );
}
