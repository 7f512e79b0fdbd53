import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type Backend } from '../support/backends.js';

function form(content: Uint8Array, type: string, filename = 'notes.txt') {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(content)], { type }), filename);
  return body;
}

// 'é' is two bytes in UTF-8; placed across the 64 KiB boundary where fetch and the multipart parser cut chunks.
const bigText = Buffer.concat([Buffer.alloc(64 * 1024 - 1, 'a'), Buffer.from('é and ünïcödé ✓\n'.repeat(5000))]);

describe.each(await backends())('text is served as text (%s)', (_, make) => {
  let app: Backend;
  let token: string;
  beforeEach(async () => {
    app = await make();
    token = await app.userToken('alice');
  });
  afterEach(() => app.close());

  async function typeServed(content: Uint8Array, type: string, filename?: string): Promise<string | null> {
    const file = (await app.request('POST', '/api/file', { token, body: form(content, type, filename) })).body;
    const res = await app.request('GET', `/api/file/${file.id}/content`, { token });
    expect(res.status).toBe(200);
    expect(res.bytes.equals(Buffer.from(content))).toBe(true);
    return res.headers.get('content-type');
  }

  it('adds charset=utf-8 to text, JSON, JavaScript, CSS and XML whose bytes are valid UTF-8', async () => {
    // JavaScript and CSS go out as text/plain (test/security/code-types.test.ts), with the charset all the same.
    const utf8 = Buffer.from('Grüße, 世界 ✓\n');
    expect(await typeServed(utf8, 'text/plain')).toBe('text/plain; charset=utf-8');
    expect(await typeServed(bigText, 'text/plain')).toBe('text/plain; charset=utf-8');
    expect(await typeServed(Buffer.from('{"a":"ü"}'), 'application/json', 'a.json')).toBe('application/json; charset=utf-8');
    expect(await typeServed(Buffer.from('body{}'), 'text/css', 'a.css')).toBe('text/plain; charset=utf-8');
    expect(await typeServed(Buffer.from('<a/>'), 'application/xml', 'a.xml')).toBe('application/xml; charset=utf-8');
    expect(await typeServed(Buffer.from('let ü = 1'), 'text/javascript', 'a.js')).toBe('text/plain; charset=utf-8');
  });

  it('names no charset for text that is not UTF-8, nor for binary types', async () => {
    expect(await typeServed(Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65]), 'text/plain')).toBe('text/plain');
    expect(await typeServed(Buffer.from([0x61, 0xe2, 0x82]), 'text/plain')).toBe('text/plain');
    expect(await typeServed(Buffer.from('plain ascii'), 'image/png', 'a.png')).toBe('image/png');
  });

  it('serves the charset through a share link too', async () => {
    const file = (await app.request('POST', '/api/file', { token, body: form(Buffer.from('ü'), 'text/plain') })).body;
    const share = (await app.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } })).body;
    const res = await app.request('GET', `/api/share/${share.id}/content`);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });
});
