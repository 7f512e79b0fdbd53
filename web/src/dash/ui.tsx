import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { errorSentence, type Situation } from './error-words.js';
import { navigate, openViewer } from './routes.js';

/** A failure as a person reads it (error-words.ts); a failure of the page itself says only its own message. */
export function describeError(err: unknown, situation?: Situation): string {
  if (err instanceof ApiError) return errorSentence(err.facts(), situation);
  return err instanceof Error ? err.message : String(err);
}

/** A failure, said once in a sentence; `situation` names what the form was doing when a code means several things. */
export function ErrorNote({ error, situation }: { error: unknown; situation?: Situation }) {
  if (error === null || error === undefined) return null;
  return (
    <p class="problem" role="alert">
      {describeError(error, situation)}
    </p>
  );
}

/** A plain click follows the link inside the page; a modified or middle click is left to the browser (a new tab). */
const inPage = (go: () => void) => (event: MouseEvent) => {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  go();
};

/** An in-app link: a real href (open in a new tab works), followed without a reload. */
export function Link({ href, children, ...rest }: { href: string } & JSX.HTMLAttributes<HTMLAnchorElement>) {
  return (
    <a href={href} onClick={inPage(() => navigate(href))} {...rest}>
      {children}
    </a>
  );
}

/** Opens an item in the viewer on this page (`?view={id}`): a real link, so a new tab opens the same view. */
export function ViewerLink({ id, children, ...rest }: { id: string } & JSX.HTMLAttributes<HTMLAnchorElement>) {
  return (
    <a href={`${location.pathname}?view=${encodeURIComponent(id)}`} onClick={inPage(() => openViewer(id))} {...rest}>
      {children}
    </a>
  );
}

/** A destructive action asks first, in the page (no browser dialog): the first click arms it, the second acts. */
export function ConfirmButton({
  label,
  confirm,
  onConfirm,
}: {
  label: string;
  confirm: string;
  onConfirm: () => void | Promise<void>;
}) {
  const [armed, setArmed] = useState(false);
  const toggled = useRef(false);
  const labelButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  // The button pressed goes away either way: the focus moves to what takes its place (Cancel, the safe answer; or
  // the first button again), so a keyboard user is not sent back to the top of the page.
  useEffect(() => {
    if (toggled.current) (armed ? cancelButton : labelButton).current?.focus();
  }, [armed]);
  const arm = (value: boolean) => {
    toggled.current = true;
    setArmed(value);
  };
  if (!armed) {
    return (
      <button type="button" class="danger-quiet" ref={labelButton} onClick={() => arm(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={confirm}>
      <span>{confirm}</span>
      <button
        type="button"
        class="danger"
        onClick={() => {
          arm(false);
          void onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" ref={cancelButton} onClick={() => arm(false)}>
        Cancel
      </button>
    </span>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="card stack" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** Runs an action, keeping its failure for an ErrorNote and telling whether it is under way. */
export function useAction(): [boolean, unknown, (action: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return [busy, error, run];
}

/**
 * What a page lists, loaded once when the page opens (which also names the window), with `reload` after a change
 * and `run` for the page's own actions, whose failures land in the same `error`.
 */
export function usePageData<T>(title: string, load: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [busy, error, run] = useAction();
  const reload = () => run(async () => setData(await load()));
  useEffect(() => {
    document.title = `${title} · Coffer`;
    void reload();
  }, []);
  return { data, busy, error, run, reload };
}
