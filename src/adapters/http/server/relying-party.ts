import { isIP } from 'node:net';
import type { Context } from 'koa';
import type { RelyingParty } from '../../../application/ports/index.js';
import { conflict } from '../../../domain/index.js';
import { publicBase } from './public-url.js';

/**
 * The relying party passkeys are bound to: the origin of the public base (PUBLIC_URL, or the origin the request was
 * sent to, as publicBase decides) and its host name as the RP id. WebAuthn allows no IP address as an RP id (browsers
 * refuse such options), so a server reached at one answers conflict with what to do instead.
 */
export function relyingParty(ctx: Context, publicUrl: string | null | undefined): RelyingParty {
  const url = new URL(publicBase(ctx, publicUrl));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(host) !== 0) {
    throw conflict(
      `Passkeys need a domain name, and this server was reached at the IP address ${host}: open it at a name ` +
        '(localhost on this machine) or set PUBLIC_URL to one',
      { reason: 'ip_address' },
    );
  }
  return { id: host, origin: url.origin };
}
