import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';
import { rawRequest } from '../support/raw-http.js';

let t: HttpTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Addresses name shares and files: no answer of any kind may hand its address on as a Referer. */
describe('Referrer-Policy: no-referrer', () => {
  it('is on every kind of answer: JSON, errors, pages, assets, content, archives, HEAD, 204, 304', async () => {
    t = await makeHttp();
    const http = t;
    const token = await http.userToken('alice');
    const folder = await http.request('POST', '/api/folder', { token, json: { name: 'shared' } });
    const file = await http.upload(token, 'bytes', { folderId: folder.body.id, filename: 'a.txt' });
    const share = await http.request('POST', '/api/share', { token, json: { type: 'folder', id: folder.body.id } });
    const fileShare = await http.request('POST', '/api/share', { token, json: { type: 'file', id: file.body.id } });
    const content = await http.request('GET', `/api/file/${file.body.id}/content`, { token });
    const dashboard = await http.request('GET', '/');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(dashboard.text)?.[1];
    expect(asset).toBeDefined();
    const victim = await http.request('POST', '/api/folder', { token, json: { name: 'gone soon' } });
    http.core.getUsage.execute = async () => {
      throw new Error('boom');
    };

    const replies: Array<[string, Reply]> = [
      ['200 JSON', await http.request('GET', '/health')],
      ['201 JSON', await http.request('POST', '/api/folder', { token, json: { name: 'x' } })],
      ['204', await http.request('DELETE', `/api/folder/${victim.body.id}`, { token })],
      ['400', await http.request('POST', '/api/folder', { token, json: { name: 5 } })],
      ['401', await http.request('GET', '/api/auth/me')],
      ['404 route', await http.request('GET', '/nowhere')],
      ['404 item', await http.request('GET', '/api/file/missing', { token })],
      ['405', await http.request('PUT', '/health')],
      ['500', await http.request('GET', '/api/usage/stats', { token })],
      ['dashboard page', dashboard],
      ['share page', await http.request('GET', `/s/${share.body.id}`)],
      ['share page, 404', await http.request('GET', '/s/AAAAAAAAAAAAAAAAAAAAAA')],
      ['asset', await http.request('GET', asset!)],
      ['asset, 404', await http.request('GET', '/assets/nothing.js')],
      ['API reference', await http.request('GET', '/api/docs')],
      ['owner content', content],
      ['owner content, 206', await http.request('GET', `/api/file/${file.body.id}/content`, { token, headers: { range: 'bytes=0-1' } })],
      ['owner content, 304', await http.request('GET', `/api/file/${file.body.id}/content`, { token, headers: { 'if-none-match': content.headers.get('etag')! } })],
      ['owner content, HEAD', await http.request('HEAD', `/api/file/${file.body.id}/content`, { token })],
      ['share content', await http.request('GET', `/api/share/${fileShare.body.id}/content`)],
      ['share page content', await http.request('GET', `/s/${fileShare.body.id}/content`)],
      ['folder share file', await http.request('GET', `/s/${share.body.id}/files/${file.body.id}`)],
      ['archive', await http.request('GET', `/s/${share.body.id}/archive`)],
      ['tus OPTIONS', await http.request('OPTIONS', '/api/upload/tus')],
      ['tus 412', await http.request('POST', '/api/upload/tus', { token })],
    ];
    expect(replies.map(([, res]) => res.status)).toEqual([
      200, 201, 204, 400, 401, 404, 404, 405, 500, 200, 200, 404, 200, 404, 200, 200, 206, 304, 200, 200, 200, 200, 200,
      204, 412,
    ]);
    for (const [what, res] of replies) expect(res.headers.get('referrer-policy'), what).toBe('no-referrer');
  });

  it('is on the answers the server gives before the app runs: a malformed request, a connection beyond the bound', async () => {
    t = await makeHttp();
    const malformed = await rawRequest(t.url, 'GET / HTTP/9\r\n\r\n');
    expect(malformed.status).toBe(400);
    expect(malformed.headers).toContain('Referrer-Policy: no-referrer');
    await t.close();

    t = await makeHttp({ serverLimits: { maxConnectionsPerAddress: 1 } });
    const { hostname, port } = new URL(t.url);
    const held = connect(Number(port), hostname);
    // A kept-alive request answered on it: the server has counted this connection.
    held.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const first = await new Promise<Buffer>((resolve) => held.once('data', resolve));
    expect(first.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    const refused = await rawRequest(t.url, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    held.destroy();
    expect(refused.status).toBe(429);
    expect(refused.headers).toContain('Referrer-Policy: no-referrer');
    expect(refused.headers).toContain('X-Content-Type-Options: nosniff');
  });
});
