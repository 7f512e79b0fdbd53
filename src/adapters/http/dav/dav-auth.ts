import type { Context } from 'koa';
import type { Actor } from '../../../domain/index.js';
import type { Core } from '../../../application/contract.js';
import { clientAddress } from '../server/client-address.js';

export const BASIC_CHALLENGE = 'Basic realm="Coffer", charset="UTF-8"';

/** The user name and password of `Authorization: Basic …` (RFC 7617, UTF-8); null when absent or malformed. */
export function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  if (!header) return null;
  const m = /^basic\s+([A-Za-z0-9+/=]{1,2048})\s*$/i.exec(header);
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon === -1) return null;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The caller of a WebDAV request, or null when no credential came (the caller then answers 401 with the challenge). */
export async function davActor(core: Core, ctx: Context): Promise<Actor | null> {
  const credentials = basicCredentials(ctx.get('Authorization') || undefined);
  if (!credentials) return null;
  return core.signInBasic.execute({ ...credentials, client: clientAddress(ctx) });
}
