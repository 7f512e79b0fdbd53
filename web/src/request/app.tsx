import { useState } from 'preact/hooks';
import { formatWait } from '../common/format.js';
import { Message } from '../common/message.js';
import type { ErrorBody } from '../common/error-body.js';
import { requestIdOf, type OpenRequest, type RequestPageData } from './page-data.js';
import { UploadForm } from './upload-form.js';
import { STATE_WORDS, allowances } from './words.js';

export function App({ data }: { data: RequestPageData }) {
  const [opened, setOpened] = useState<OpenRequest | null>(data.state === 'open' ? data.request : null);
  return (
    <>
      <header class="site-header">
        <span class="brand">Coffer</span>
      </header>
      <main id="main" class="page">
        {opened ? (
          <RequestView request={opened} />
        ) : data.state === 'locked' ? (
          <Unlock name={data.request.name} onOpen={setOpened} />
        ) : data.state === 'throttled' ? (
          <Message title="Too many requests">Try again in {formatWait(data.retryAfter)}.</Message>
        ) : (
          <Message title="File request not found">This link does not lead to a file request.</Message>
        )}
      </main>
    </>
  );
}

function RequestView({ request }: { request: OpenRequest }) {
  document.title = `${request.name} · Coffer`;
  return (
    <section class="card request" aria-labelledby="request-title">
      <p class="kind">File request from {request.ownerName}</p>
      <h1 id="request-title">{request.name}</h1>
      {request.message && <p class="request-message">{request.message}</p>}
      {request.state === 'active' ? (
        <>
          <p class="note">This request takes {allowances(request).join(' · ')}.</p>
          <UploadForm requestId={requestIdOf(location.pathname)} request={request} />
        </>
      ) : (
        <p class="problem" role="status">
          {STATE_WORDS[request.state] ?? 'This request takes no more files.'}
        </p>
      )}
    </section>
  );
}

/** The password form: the password goes in a JSON body to /r/{id}/unlock, never into the address. */
function Unlock({ name, onOpen }: { name: string; onOpen: (request: OpenRequest) => void }) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  document.title = 'Protected file request · Coffer';

  const submit = async (event: Event) => {
    event.preventDefault();
    if (password === '' || checking) return;
    setChecking(true);
    try {
      const id = requestIdOf(location.pathname);
      const res = await fetch(`/r/${encodeURIComponent(id)}/unlock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ password }),
      });
      if (res.ok) return onOpen((await res.json()) as OpenRequest);
      const body = (await res.json().catch(() => ({}))) as ErrorBody;
      setProblem(
        res.status === 429
          ? `Too many wrong passwords. Try again in ${formatWait(body.retryAfter ?? 60)}.`
          : res.status === 401
            ? 'That password is wrong. Check it and try again.'
            : (body.message ?? 'The request could not be opened.'),
      );
    } catch {
      setProblem('The connection was lost. Try again.');
    } finally {
      setChecking(false);
    }
  };

  return (
    <section class="card" aria-labelledby="lock-title">
      <h1 id="lock-title">{name}</h1>
      <p>This file request is protected. Enter the password you were given to send files.</p>
      <form class="password-form" onSubmit={submit} noValidate>
        <label for="request-password">Password</label>
        <input
          id="request-password"
          type="password"
          autoComplete="off"
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem !== null ? 'lock-problem' : undefined}
        />
        <button class="button" type="submit" disabled={checking}>
          {checking ? 'Checking…' : 'Open'}
        </button>
        {problem && (
          <p id="lock-problem" class="problem" role="alert">
            {problem}
          </p>
        )}
      </form>
    </section>
  );
}
