import { assertMay, MAX_PROPERTY_CHARS_PER_USER, propertyChars } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';
import { tooMany } from './too-many.js';

type CopyPropertiesPort = Core['copyProperties'];

type Deps = Pick<Ports, 'properties'>;

/** Copies the properties of items to their copies (`pairs`: from id, to id), replacing what the copies had. */
export class CopyProperties implements CopyPropertiesPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, pairs }: Parameters<CopyPropertiesPort['execute']>[0]) {
    assertMay(actor, 'file.update');
    await changeVersioned(this.p.properties, actor.userId, (all) => {
      const next = { ...all };
      for (const [from, to] of pairs) {
        if (all[from]?.length) next[to] = all[from];
        else delete next[to];
      }
      const total = Object.values(next).reduce((sum, list) => sum + propertyChars(list), 0);
      if (total > MAX_PROPERTY_CHARS_PER_USER) throw tooMany('Your stored properties are too large');
      return { next, result: undefined };
    });
  }
}
