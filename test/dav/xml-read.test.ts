import { describe, expect, it } from 'vitest';
import { parseXml, XmlError } from '../../src/adapters/http/dav/xml-read.js';
import { innerXml, esc } from '../../src/adapters/http/dav/xml-write.js';

describe('the WebDAV XML reader', () => {
  it('resolves namespaces (default, prefixed, redeclared) and reads text, CDATA and character references', () => {
    const root = parseXml(
      '<?xml version="1.0"?>\n<D:propfind xmlns:D="DAV:" xmlns="urn:a"><D:prop><x/><b:y xmlns:b="urn:b">t&amp;&#x263A;<![CDATA[<raw>]]></b:y><z xmlns="">n</z></D:prop></D:propfind>',
    );
    expect(root).toMatchObject({ ns: 'DAV:', local: 'propfind' });
    const [x, y, z] = root.children[0]!.children;
    expect(x).toMatchObject({ ns: 'urn:a', local: 'x' });
    expect(y).toMatchObject({ ns: 'urn:b', local: 'y', text: 't&\u263a<raw>' });
    expect(z).toMatchObject({ ns: '', local: 'z', text: 'n' });
  });

  it('refuses what it does not read: DOCTYPE, unknown entities, bad nesting, undeclared prefixes, two roots', () => {
    for (const bad of [
      '<!DOCTYPE a><a/>',
      '<a>&ext;</a>',
      '<a>& b</a>',
      '<a><b></a></b>',
      '<p:a/>',
      '<a/><b/>',
      '<a xmlns:p=""/>',
      '<a',
      'text',
      '',
    ]) {
      expect(() => parseXml(bad), bad).toThrow(XmlError);
    }
  });

  it('bounds depth', () => {
    expect(() => parseXml(`${'<a>'.repeat(64)}${'</a>'.repeat(64)}`)).not.toThrow();
    expect(() => parseXml(`${'<a>'.repeat(65)}${'</a>'.repeat(65)}`)).toThrow(/too deep/);
  });

  it('writes a value back as XML that carries its own namespaces, and escapes text', () => {
    const value = parseXml('<v xmlns:p="urn:p"><p:q p:attr="1&lt;2">a &lt; b</p:q></v>');
    const written = innerXml(value);
    expect(parseXml(`<w>${written}</w>`).children[0]).toMatchObject({ ns: 'urn:p', local: 'q', text: 'a < b' });
    expect(parseXml(`<w>${written}</w>`).children[0]!.attrs.get('{urn:p}attr')).toBe('1<2');
    expect(esc('<&>"\u0001')).toBe('&lt;&amp;&gt;&quot;');
  });
});
