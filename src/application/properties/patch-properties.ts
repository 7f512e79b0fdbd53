import {
  assertMay,
  MAX_PROPERTIES_PER_ITEM,
  MAX_PROPERTY_CHARS_PER_ITEM,
  MAX_PROPERTY_CHARS_PER_USER,
  propertyChars,
} from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';
import { tooMany } from './too-many.js';

type PatchPropertiesPort = Core['patchProperties'];

type Deps = Pick<Ports, 'properties'>;
const same = (a: { ns: string; name: string }, b: { ns: string; name: string }) => a.ns === b.ns && a.name === b.name;

/**
 * Sets and removes properties of one item, all or nothing, in one conditional write: refused (payload_too_large)
 * past the item's or the user's bounds. Instructions apply in order, as RFC 4918 §9.2 asks.
 */
export class PatchProperties implements PatchPropertiesPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, itemId, changes }: Parameters<PatchPropertiesPort['execute']>[0]) {
    assertMay(actor, 'file.update');
    await changeVersioned(this.p.properties, actor.userId, (all) => {
      let props = [...(all[itemId] ?? [])];
      for (const change of changes) {
        props = props.filter((prop) => !same(prop, change));
        if (change.value !== null) props.push({ ns: change.ns, name: change.name, value: change.value });
      }
      if (props.length > MAX_PROPERTIES_PER_ITEM) throw tooMany(`At most ${MAX_PROPERTIES_PER_ITEM} properties per item`);
      if (propertyChars(props) > MAX_PROPERTY_CHARS_PER_ITEM) throw tooMany('The properties of one item are too large');
      const next = { ...all, [itemId]: props };
      if (props.length === 0) delete next[itemId];
      const total = Object.values(next).reduce((sum, list) => sum + propertyChars(list), 0);
      if (total > MAX_PROPERTY_CHARS_PER_USER) throw tooMany('Your stored properties are too large');
      return { next, result: undefined };
    });
  }
}
