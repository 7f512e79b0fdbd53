import { useState } from 'preact/hooks';
import { api, type AdminUserView, type MeView } from './api.js';
import { CountMaximum, StorageMaximum } from './limit-editors.js';
import { ConfirmButton, ErrorNote, Section, useAction, usePageData } from './ui.js';
import { UsageBars } from './usage-bars.js';

/** A user's second factors, named for the admin who is about to turn them off. */
function secondFactors(mfa: AdminUserView['mfa']): string {
  const factors = [
    ...(mfa.totp ? ['authenticator app'] : []),
    ...(mfa.passkeys > 0 ? [mfa.passkeys === 1 ? 'passkey' : `${mfa.passkeys} passkeys`] : []),
  ];
  return `Their ${factors.join(' and ')}`;
}

function UserCard({ user, me, onChanged }: { user: AdminUserView; me: MeView; onChanged: () => void }) {
  const [password, setPassword] = useState('');
  const [, error, run] = useAction();
  const act = (action: () => Promise<unknown>) => run(async () => (await action(), onChanged()));
  return (
    <li class="card stack user-card" aria-label={user.username}>
      <div class="row spread">
        <h3>
          {user.username} <span class="tag">{user.type}</span>
          {user.oidc && (
            <span class="tag" title={`Signs in with single sign-on: ${user.oidc.subject} at ${user.oidc.issuer}`}>
              SSO
            </span>
          )}
          {!user.hasPassword && <span class="tag">no password</span>}
        </h3>
        <div class="row">
          <button
            type="button"
            onClick={() => void act(() => api.updateUser(user.id, { type: user.type === 'admin' ? 'user' : 'admin' }))}
          >
            {user.type === 'admin' ? 'Demote to user' : 'Promote to admin'}
          </button>
          {(user.mfa.totp || user.mfa.passkeys > 0) && (
            <ConfirmButton
              label="Turn off two-factor sign-in"
              confirm={`Turn off two-factor sign-in for ${user.username}? ${secondFactors(user.mfa)} will no longer sign them in; their password alone will.`}
              onConfirm={() => act(() => api.resetUserMfa(user.id))}
            />
          )}
          {user.id !== me.id && (
            <ConfirmButton
              label="Delete"
              confirm={`Delete ${user.username} and all their files?`}
              onConfirm={() => act(() => api.deleteUser(user.id))}
            />
          )}
        </div>
      </div>
      <UsageBars usage={user} />
      <StorageMaximum user={user} onSaved={onChanged} />
      <CountMaximum user={user} onSaved={onChanged} />
      <form
        class="row"
        onSubmit={(e) => (e.preventDefault(), void act(async () => (await api.updateUser(user.id, { password }), setPassword(''))))}
      >
        <label>
          New password
          <input type="password" autocomplete="new-password" minLength={8} required value={password}
            onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <button type="submit">Reset password</button>
      </form>
      <ErrorNote error={error} />
    </li>
  );
}

export function AdminPage({ me }: { me: MeView }) {
  const { data: users, error, run, reload } = usePageData('Admin', api.users);
  const [form, setForm] = useState({ username: '', password: '', type: 'user' as 'admin' | 'user' });
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.createUser(form.username, form.password, form.type);
      setForm({ username: '', password: '', type: 'user' });
      await reload();
    });
  };
  return (
    <>
      <Section title="Create a user">
        <form class="row" onSubmit={create}>
          <label>
            Username
            <input required value={form.username} onInput={(e) => setForm({ ...form, username: e.currentTarget.value })} />
          </label>
          <label>
            Password
            <input type="password" autocomplete="new-password" required minLength={8} value={form.password}
              onInput={(e) => setForm({ ...form, password: e.currentTarget.value })} />
          </label>
          <label>
            Type
            <select value={form.type} onChange={(e) => setForm({ ...form, type: e.currentTarget.value as 'admin' | 'user' })}>
              <option value="user">user</option>
              <option value="admin">admin</option>
            </select>
          </label>
          <button type="submit" class="primary">
            Create user
          </button>
        </form>
        <ErrorNote error={error} />
      </Section>
      <h2>Users</h2>
      <ul class="plain-list stack">
        {users?.map((user) => <UserCard key={user.id} user={user} me={me} onChanged={() => void reload()} />)}
      </ul>
    </>
  );
}
