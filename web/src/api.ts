import type { ShareView } from '../../src/application/views.js';

export type { ShareView };

/** What reading a share can come to, as the page needs to tell them apart. */
export type ShareResult =
  | { kind: 'ok'; share: ShareView }
  | { kind: 'password'; reason: 'required' | 'invalid' }
  | { kind: 'throttled'; retryAfter: number }
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string };

interface ErrorBody {
  error?: string;
  message?: string;
  retryAfter?: number;
}

const shareUrl = (id: string) => `/api/share/${encodeURIComponent(id)}`;
export const contentUrl = (id: string) => `${shareUrl(id)}/content`;

/**
 * Header values travel as bytes and fetch refuses characters above U+00FF, while the API reads X-Share-Password as
 * UTF-8: send the UTF-8 bytes, one Latin-1 character each.
 */
export function passwordHeaders(password: string | null): Record<string, string> {
  if (password === null) return {};
  const bytes = new TextEncoder().encode(password);
  return { 'X-Share-Password': String.fromCharCode(...bytes) };
}

async function errorBody(res: Response): Promise<ErrorBody> {
  try {
    return (await res.json()) as ErrorBody;
  } catch {
    return {};
  }
}

function failure(res: Response, body: ErrorBody): ShareResult {
  if (res.status === 404) return { kind: 'not-found' };
  if (res.status === 429) return { kind: 'throttled', retryAfter: body.retryAfter ?? 60 };
  if (body.error === 'share_password_required') return { kind: 'password', reason: 'required' };
  if (body.error === 'share_password_invalid') return { kind: 'password', reason: 'invalid' };
  return { kind: 'failed', message: body.message ?? `The server answered ${res.status}.` };
}

/** Reads a share (this counts one view); `password` only when the visitor typed one. */
export async function fetchShare(id: string, password: string | null): Promise<ShareResult> {
  let res: Response;
  try {
    res = await fetch(shareUrl(id), { headers: passwordHeaders(password), cache: 'no-store' });
  } catch {
    return { kind: 'failed', message: 'The server could not be reached. Check your connection and try again.' };
  }
  if (res.ok) return { kind: 'ok', share: (await res.json()) as ShareView };
  return failure(res, await errorBody(res));
}

/**
 * A protected share's file, fetched with the password header and saved from a blob: a plain link cannot carry the
 * header. This holds the file in memory, which is why unprotected shares use a plain link instead.
 */
export async function downloadWithPassword(id: string, password: string, name: string): Promise<void> {
  const res = await fetch(contentUrl(id), { headers: passwordHeaders(password), cache: 'no-store' });
  if (!res.ok) {
    const body = await errorBody(res);
    throw new Error(body.message ?? `The download failed (${res.status}).`);
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click only starts the download; revoking at once could cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
