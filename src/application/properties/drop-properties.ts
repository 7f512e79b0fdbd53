import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';

type DropPropertiesPort = Core['dropProperties'];

type Deps = Pick<Ports, 'properties'>;

/** Forgets the properties of items (they were deleted or replaced). */
export class DropProperties implements DropPropertiesPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, itemIds }: Parameters<DropPropertiesPort['execute']>[0]) {
    assertMay(actor, 'file.update');
    await changeVersioned(this.p.properties, actor.userId, (all) => {
      const next = { ...all };
      for (const id of itemIds) delete next[id];
      return { next, result: undefined };
    });
  }
}
