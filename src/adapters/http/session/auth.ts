import type { Context, Middleware } from 'koa';
import type { Actor } from '../../../domain/index.js';
import { isDomainError, unauthorized } from '../../../domain/index.js';
import type { Core, ReadAccess } from '../../../application/contract.js';
import { clientAddress } from '../server/client-address.js';
import { readerOf } from '../server/reader.js';
import { assertCookieWriteAllowed, fromOwnOrigin, isSafeMethod } from './csrf.js';
import { headerText } from './header-text.js';
import { publicBase } from '../server/public-url.js';
import { sessionCookie } from './session-cookie.js';
import { parseId } from '../validation.js';

export interface AuthState {
  actor?: Actor;
}

// Longer values cannot be one of our tokens; refusing them early keeps hashing cheap.
const MAX_TOKEN_LENGTH = 512;

/**
 * The schemes that carry one of our tokens: `token` (the spec's) and `Bearer` (RFC 6750, what tus clients, OpenAPI
 * tools and most scripts send). Both take the same secrets under the same rules.
 */
const TOKEN_SCHEMES = new Set(['token', 'bearer']);

/**
 * The secret of `Authorization: token <value>` or `Authorization: Bearer <value>`: the scheme matches without
 * regard to case and exactly one value follows one space. Null when the header is absent; anything malformed is
 * unauthorized.
 */
export function tokenFrom(header: string | undefined): string | null {
  if (header === undefined) return null;
  const parts = header.split(' ');
  const [scheme, value] = parts;
  if (parts.length !== 2 || !TOKEN_SCHEMES.has(scheme!.toLowerCase()) || !value || value.length > MAX_TOKEN_LENGTH) {
    throw unauthorized('Authorization header must be "token <value>" or "Bearer <value>"');
  }
  return value;
}

export class Auth {
  /**
   * `publicUrl`: the public base (PUBLIC_URL), one of the origins a browser session accepts requests from. Which
   * forwarded headers count (TRUST_PROXY) is the app's proxy settings (server/trust-proxy.ts).
   */
  constructor(
    private readonly core: Core,
    private readonly publicUrl: string | null = null,
  ) {}

  /** Whether the cookie set for this request must be Secure: the public base is HTTPS. */
  secure(ctx: Context): boolean {
    return publicBase(ctx, this.publicUrl).startsWith('https:');
  }

  /** The login CSRF defence: only a page of our own origin may sign a browser in. */
  assertOwnPage(ctx: Context): void {
    assertCookieWriteAllowed(ctx, this.publicUrl);
  }

  /** The client address the core throttles guesses on; see clientAddress. */
  client(ctx: Context): string {
    return clientAddress(ctx);
  }

  /**
   * Null without credentials. An Authorization header that is present must be valid, and the session cookie is then
   * not looked at; without one, the browser session's cookie counts (see cookieActor).
   */
  async optionalActor(ctx: Context): Promise<Actor | null> {
    const token = tokenFrom(ctx.headers.authorization);
    return token === null ? this.cookieActor(ctx) : this.core.authenticate.execute({ token });
  }

  /**
   * The cookie's session. A read from another origin is served as if anonymous (the cookie is ignored), a change from
   * another origin or without the CSRF header is refused, and a cookie whose session ended is no session at all, so
   * a stale cookie never breaks a public page.
   */
  private async cookieActor(ctx: Context): Promise<Actor | null> {
    const token = sessionCookie(ctx);
    if (token === null) return null;
    if (isSafeMethod(ctx)) {
      if (!fromOwnOrigin(ctx, this.publicUrl)) return null;
    } else {
      assertCookieWriteAllowed(ctx, this.publicUrl);
    }
    try {
      return await this.core.authenticate.execute({ token });
    } catch (err) {
      if (isDomainError(err) && err.code === 'unauthorized') return null;
      throw err;
    }
  }

  async requireActor(ctx: Context): Promise<Actor> {
    const actor = await this.optionalActor(ctx);
    if (!actor) throw unauthorized();
    return actor;
  }

  /** Authenticates before any body is read, and leaves the actor in ctx.state for the handler. */
  readonly required: Middleware<AuthState> = async (ctx, next) => {
    ctx.state.actor = await this.requireActor(ctx);
    return next();
  };

  /**
   * The ordinary GET routes: the owner with a token, or anyone with `X-Share-Id` (and `X-Share-Password` for a
   * protected share). Without a share header a token is required. A HEAD only peeks: it counts nothing.
   */
  async readAccess(ctx: Context): Promise<ReadAccess> {
    const actor = await this.optionalActor(ctx);
    const shareId = ctx.get('X-Share-Id');
    if (!shareId) {
      if (!actor) throw unauthorized();
      return { actor, share: null };
    }
    return {
      actor,
      share: {
        id: parseId(shareId, 'X-Share-Id'),
        password: sharePassword(ctx),
        client: this.client(ctx),
        peek: ctx.method === 'HEAD',
        reader: readerOf(ctx),
      },
    };
  }
}

export function sharePassword(ctx: Context): string | null {
  const raw = ctx.get('X-Share-Password');
  return raw === '' ? null : headerText(raw);
}

/** The actor `Auth.required` put in place; its absence is a wiring bug, not a client error. */
export function actorOf(ctx: { state: AuthState }): Actor {
  const { actor } = ctx.state;
  if (!actor) throw new Error('route is missing the Auth.required middleware');
  return actor;
}
