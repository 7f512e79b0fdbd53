import { useState } from 'preact/hooks';
import { formatDate } from '../common/format.js';
import { api, type CreatedWebhookView, type DeliveryView, type WebhookInput, type WebhookView } from './api.js';
import { CopyField } from './copy-link.js';
import { ConfirmButton, ErrorNote, Section, useAction, usePageData } from './ui.js';

const EVENTS: WebhookInput['events'] = [
  'share.viewed',
  'share.downloaded',
  'share.archive',
  'share.password_refused',
  'share.gone',
  'request.received',
  'limit.reached',
];

function Deliveries({ id }: { id: string }) {
  const { data, error, reload } = usePageData('Webhooks', () => api.deliveries(id));
  return (
    <div class="stack">
      <ErrorNote error={error} />
      {data?.length === 0 && <p class="muted">No deliveries yet.</p>}
      {data && data.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Deliveries">
          <table class="activity-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Next attempt</th>
              </tr>
            </thead>
            <tbody>
              {data.map((d: DeliveryView) => (
                <tr key={d.id}>
                  <td>
                    {d.type} <span class="muted">{formatDate(d.createdAt)}</span>
                  </td>
                  <td>{d.state === 'delivered' && d.deliveredAt ? `delivered ${formatDate(d.deliveredAt)}` : d.state}</td>
                  <td>{d.attempts}</td>
                  <td>{d.lastStatus ?? d.lastError ?? ''}</td>
                  <td>{d.nextAttemptAt ? formatDate(d.nextAttemptAt) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="row">
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
    </div>
  );
}

function WebhookRow({ hook, onChanged }: { hook: WebhookView; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, error, run] = useAction();
  const [sent, setSent] = useState('');
  return (
    <li class="share-row">
      <div class="share-head">
        <strong class="name">{hook.url}</strong>
        <span class={`tag ${hook.enabled ? 'state-active' : 'state-exhausted'}`}>{hook.enabled ? 'enabled' : 'disabled'}</span>
      </div>
      <p class="muted">
        {hook.events.join(', ')}
        {hook.shareIds ? ` · ${hook.shareIds.length} share(s) only` : ''} · created {formatDate(hook.createdAt)}
      </p>
      {hook.disabledReason && <p class="notice">Disabled: {hook.disabledReason}</p>}
      <div class="row">
        <button type="button" disabled={busy} onClick={() => void run(async () => (await api.testWebhook(hook.id), setSent('A test event is on its way.'), setOpen(true)))}>
          Send test
        </button>
        <button type="button" onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </button>
        {!hook.enabled && (
          <button type="button" onClick={() => void run(async () => (await api.updateWebhook(hook.id, { enabled: true }), onChanged()))}>
            Turn back on
          </button>
        )}
        <ConfirmButton label="Delete" confirm="Delete this webhook?" onConfirm={() => run(async () => (await api.deleteWebhook(hook.id), onChanged()))} />
      </div>
      <p class="hint" role="status">
        {sent}
      </p>
      {open && <Deliveries id={hook.id} />}
      <ErrorNote error={error} />
    </li>
  );
}

/** `/webhooks`: addresses told as it happens, each delivery signed (docs/API.md says how to check). */
export function WebhooksPage() {
  const { data: hooks, error, run, reload } = usePageData('Webhooks', api.webhooks);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set(['share.downloaded']));
  const [created, setCreated] = useState<CreatedWebhookView | null>(null);
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setCreated(await api.createWebhook({ url, events: EVENTS.filter((e) => events.has(e)) }));
      setUrl('');
      await reload();
    });
  };
  const toggle = (name: string, on: boolean) => {
    const next = new Set(events);
    if (on) next.add(name);
    else next.delete(name);
    setEvents(next);
  };
  return (
    <Section title="Webhooks">
      <p>Coffer posts each event to these addresses as it happens, signed with the webhook’s secret. At most 10.</p>
      <form class="stack" onSubmit={create}>
        <label>
          Address
          <input type="url" value={url} required placeholder="https://hooks.example.com/coffer" onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((name) => (
            <label key={name} class="check">
              <input type="checkbox" checked={events.has(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} /> {name}
            </label>
          ))}
        </fieldset>
        <div class="row">
          <button type="submit" class="primary" disabled={events.size === 0}>
            Add webhook
          </button>
        </div>
      </form>
      {created && (
        <div class="notice stack" role="status">
          <p>
            <strong>Webhook added.</strong> Copy its secret now: it is shown only once. Check each delivery’s
            Coffer-Signature with it.
          </p>
          <CopyField value={created.secret} label="Secret" button="Copy secret" />
        </div>
      )}
      <ErrorNote error={error} />
      {hooks?.length === 0 && <p class="muted">No webhooks yet.</p>}
      <ul class="plain-list">
        {hooks?.map((hook) => <WebhookRow key={hook.id} hook={hook} onChanged={() => void reload()} />)}
      </ul>
    </Section>
  );
}
