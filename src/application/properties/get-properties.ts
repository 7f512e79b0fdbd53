import type { ItemProperty } from '../../domain/index.js';
import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';

type GetPropertiesPort = Core['getProperties'];

type Deps = Pick<Ports, 'properties'>;

/** The properties stored on the caller's items, by item id (items without any are left out). */
export class GetProperties implements GetPropertiesPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, itemIds }: Parameters<GetPropertiesPort['execute']>[0]) {
    assertMay(actor, 'folder.list');
    const { value } = await this.p.properties.read(actor.userId);
    const found: Record<string, ItemProperty[]> = {};
    for (const id of itemIds) if (value[id]?.length) found[id] = value[id];
    return found;
  }
}
