import { assertMay, TOKEN_SCOPES } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { createdCursor, parseCreatedCursor } from '../paging/cursor.js';
import { cut, pageSize } from '../paging/page-size.js';
import type { Ports } from '../ports/index.js';
import { tokenView } from '../views.js';

type Port = Core['listApiTokens'];

export class ListApiTokens implements Port {
  constructor(private readonly p: Pick<Ports, 'tokens'>) {}

  /** The caller's API tokens, without secrets, oldest first, one keyset page at a time; sessions are not listed. */
  async execute({ actor, limit, cursor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'token.list');
    const size = pageSize(limit);
    const after = parseCreatedCursor('tokens', cursor);
    const { items, more } = cut(await this.p.tokens.pageByUser(actor.userId, TOKEN_SCOPES, after, size + 1), size);
    return { items: items.map(tokenView), nextCursor: more ? createdCursor('tokens', items.at(-1)!) : null };
  }
}
