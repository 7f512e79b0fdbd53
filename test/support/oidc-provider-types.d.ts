/**
 * The few parts of oidc-provider 9 (a devDependency that ships no types) the test provider uses. Typed by hand from
 * its documentation; anything else stays unknown.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
      params?: Record<string, unknown>;
      provider: { Grant: new (init: { clientId: string; accountId: string }) => Grant };
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
