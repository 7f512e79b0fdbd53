import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { tokenView } from '../views.js';

type Port = Core['listApiTokens'];

export class ListApiTokens implements Port {
  constructor(private readonly p: Pick<Ports, 'tokens'>) {}

  /** The caller's API tokens, without secrets; sessions are not listed. */
  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'token.list');
    const tokens = await this.p.tokens.listByUser(actor.userId, 'uploader');
    return tokens.map(tokenView);
  }
}
