import type { Token } from '../../domain/index.js';
import { assertMay, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { createHeld } from '../usage/record-holds.js';
import { tokenView } from '../views.js';

type Port = Core['createApiToken'];

export const TOKEN_NAME_MAX = 100;

export class CreateApiToken implements Port {
  constructor(
    private readonly p: Pick<Ports, 'tokens' | 'users' | 'usage' | 'settings' | 'secrets' | 'ids' | 'clock' | 'instance'>,
  ) {}

  /** The secret is returned here and never again: only its hash is stored. */
  async execute({ actor, name, scope = 'uploader' }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'token.create');
    const cleanName = requireName(name, 'name', TOKEN_NAME_MAX);
    const secret = this.p.secrets.newSecret();
    const token: Token = {
      id: this.p.ids.newId(),
      userId: actor.userId,
      type: scope,
      name: cleanName,
      hash: this.p.secrets.hash(secret),
      createdAt: this.p.clock.now(),
      expiresAt: null,
      credentialsEpoch: null,
    };
    await createHeld(this.p, actor, 'tokens', 'token', token.id, {
      insert: () => this.p.tokens.insert(token),
      takeBack: () => this.p.tokens.delete(token.id),
    });
    return { ...tokenView(token), token: secret };
  }
}
