import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest | undefined;
afterEach(() => t?.close());

interface JsonReply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A JSON GET with any Host header (fetch always sends the real one). */
function getWith(base: string, path: string, headers: Record<string, string>): Promise<JsonReply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** An app with alice's file shared. */
async function sharedFile(options: Parameters<typeof makeHttp>[0] = {}) {
  const app = (t = await makeHttp(options));
  const token = await app.userToken('alice');
  const fileId = (await app.upload(token, 'bytes')).body.id;
  const created = await app.request('POST', '/api/share', { token, json: { type: 'file', id: fileId } });
  expect(created.status).toBe(201);
  return { app, id: created.body.id, token };
}

const FORWARDED = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

describe('the url of a share', () => {
  it('is the request origin without PUBLIC_URL, on every answer carrying a Share', async () => {
    const { app, id, token } = await sharedFile();
    const url = `${app.url}/s/${id}`;
    expect((await app.request('GET', '/api/share', { token })).body[0].url).toBe(url);
    expect((await app.request('GET', `/api/share/${id}`)).body.url).toBe(url);
    expect((await app.request('PATCH', `/api/share/${id}`, { token, json: { maxViews: 5 } })).body.url).toBe(url);
    const other = await getWith(app.url, `/api/share/${id}`, { host: 'files.example.org:8443' });
    expect(other.body.url).toBe(`http://files.example.org:8443/s/${id}`);
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto without TRUST_PROXY', async () => {
    const { app, id } = await sharedFile();
    const res = await getWith(app.url, `/api/share/${id}`, { host: 'coffer.lan', ...FORWARDED });
    expect(res.body.url).toBe(`http://coffer.lan/s/${id}`);
  });

  it('reads the forwarded host and scheme the trusted proxy wrote with TRUST_PROXY', async () => {
    const { app, id } = await sharedFile({ trustProxy: 1 });
    const one = await getWith(app.url, `/api/share/${id}`, {
      host: 'backend:3000',
      'x-forwarded-host': 'files.example.com',
      'x-forwarded-proto': 'https',
    });
    expect(one.body.url).toBe(`https://files.example.com/s/${id}`);
    // The proxy appends to what the client sent: only its own last entry is believed.
    const appended = await getWith(app.url, `/api/share/${id}`, {
      host: 'backend:3000',
      'x-forwarded-host': 'evil.example, files.example.com',
      'x-forwarded-proto': 'http, https',
    });
    expect(appended.body.url).toBe(`https://files.example.com/s/${id}`);
    const garbage = await getWith(app.url, `/api/share/${id}`, {
      host: 'backend:3000',
      'x-forwarded-host': 'evil.example/phish?',
      'x-forwarded-proto': 'javascript',
    });
    expect(garbage.body.url).toBe(`http://backend:3000/s/${id}`);
  });

  it('with TRUST_PROXY=2 believes the entry the outer proxy wrote', async () => {
    const { app, id } = await sharedFile({ trustProxy: 2 });
    const res = await getWith(app.url, `/api/share/${id}`, {
      host: 'backend:3000',
      'x-forwarded-host': 'evil.example, files.example.com, inner.lan',
      'x-forwarded-proto': 'http, https, http',
    });
    expect(res.body.url).toBe(`https://files.example.com/s/${id}`);
  });

  it('is PUBLIC_URL (with its path) whatever the request says', async () => {
    const { app, id, token } = await sharedFile({ publicUrl: 'https://coffer.example/files', trustProxy: 1 });
    const url = `https://coffer.example/files/s/${id}`;
    expect((await app.request('GET', '/api/share', { token })).body[0].url).toBe(url);
    expect((await getWith(app.url, `/api/share/${id}`, { host: 'other.example', ...FORWARDED })).body.url).toBe(url);
  });

  it('is on the created share too', async () => {
    const app = (t = await makeHttp({ publicUrl: 'https://coffer.example' }));
    const token = await app.userToken('alice');
    const paste = (await app.request('POST', '/api/paste', { token, json: { content: 'x' } })).body;
    const created = await app.request('POST', '/api/share', { token, json: { type: 'paste', id: paste.id } });
    expect(created.body.url).toBe(`https://coffer.example/s/${created.body.id}`);
  });
});
