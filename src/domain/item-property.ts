/**
 * A property a client stores on one of its files or folders (WebDAV's dead properties, RFC 4918 §4): a namespaced
 * name and a value kept as the client sent it (an XML fragment, namespaces made explicit). Bounded per item.
 */
export interface ItemProperty {
  ns: string;
  name: string;
  value: string;
}

export const MAX_PROPERTIES_PER_ITEM = 100;
/** Names, namespaces and values of one item's properties together, in UTF-16 code units. */
export const MAX_PROPERTY_CHARS_PER_ITEM = 64 * 1024;
/** Every property of one user together. */
export const MAX_PROPERTY_CHARS_PER_USER = 4 * 1024 * 1024;

export function propertyChars(props: readonly ItemProperty[]): number {
  return props.reduce((sum, p) => sum + p.ns.length + p.name.length + p.value.length, 0);
}
