import { useState } from 'preact/hooks';
import { formatDate } from '../common/format.js';
import { api, type ShareView } from './api.js';
import { CopyLink } from './copy-link.js';
import { ShareForm, shareOptions } from './share-form.js';
import { ConfirmButton, ErrorNote, Link, Section, useAction, usePageData } from './ui.js';
import { RecentActivity } from './activity-page.js';
import { MailSwitch } from './mail-switch.js';

const itemName = (share: ShareView) =>
  share.file?.name ?? share.folder?.name ?? share.collection?.name ?? share.paste?.name ?? share.id;

const limit = (used: number, max: number | null) => (max === null ? `${used}` : `${used} of ${max}`);

function ShareRow({ share, onChanged }: { share: ShareView; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [, error, run] = useAction();
  return (
    <li class="share-row">
      <div class="share-head">
        <strong class="name">{itemName(share)}</strong>
        <span class="tag">{share.type}</span>
        <span class={`tag state-${share.state}`}>{share.state}</span>
        {share.protected && <span class="tag">password</span>}
      </div>
      <dl class="facts compact">
        <div class="fact">
          <dt>Views</dt>
          <dd>{limit(share.views, share.maxViews)}</dd>
        </div>
        <div class="fact">
          <dt>Downloads</dt>
          <dd>{limit(share.downloads, share.maxDownloads)}</dd>
        </div>
        <div class="fact">
          <dt>Expires</dt>
          <dd>{share.expiresAt ? formatDate(share.expiresAt) : 'never'}</dd>
        </div>
      </dl>
      {share.url && <CopyLink url={share.url} />}
      <MailSwitch label="Email me when it is downloaded" on={share.notify?.email ?? false} save={(email) => api.updateShare(share.id, { notify: { email } })} />
      <div class="row">
        <button type="button" onClick={() => setEditing(!editing)}>
          {editing ? 'Close' : 'Edit'}
        </button>
        <Link href={`/activity?share=${encodeURIComponent(share.id)}`}>Activity</Link>
        <ConfirmButton
          label="Revoke"
          confirm="Revoke this link?"
          onConfirm={() => run(async () => (await api.deleteShare(share.id), onChanged()))}
        />
      </div>
      {editing && (
        <ShareForm
          submitLabel="Save"
          editing
          currentExpiry={share.expiresAt}
          initial={{
            maxViews: share.maxViews?.toString() ?? '',
            maxDownloads: share.maxDownloads?.toString() ?? '',
          }}
          onSubmit={(values) =>
            void run(async () => {
              await api.updateShare(share.id, shareOptions(values, true));
              setEditing(false);
              onChanged();
            })
          }
        />
      )}
      <ErrorNote error={error} />
    </li>
  );
}

export function SharesPage() {
  const { data: shares, error, reload } = usePageData('Shares', api.shares);
  return (
    <>
    <RecentActivity />
    <Section title="Shares">
      <ErrorNote error={error} />
      {shares?.length === 0 && <p>Nothing is shared yet. Share a file, folder, paste or collection from its list.</p>}
      <ul class="plain-list">
        {shares?.map((share) => <ShareRow key={share.id} share={share} onChanged={() => void reload()} />)}
      </ul>
    </Section>
    </>
  );
}
