import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

interface Dav {
  t: HttpTest;
  auth: string;
  req(method: string, path: string, init?: { headers?: Record<string, string>; body?: string | Uint8Array; auth?: string | null }): Promise<Response>;
}

const opened: HttpTest[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

async function davToken(t: HttpTest, name: string): Promise<string> {
  const { token: session } = await t.user(name);
  const res = await t.request('POST', '/api/token', { token: session, json: { name: 'dav', scope: 'dav' } });
  expect(res.status).toBe(201);
  expect(res.body.scope).toBe('dav');
  t.scan.addToken(res.body.token);
  return res.body.token;
}

function client(t: HttpTest, auth: string): Dav {
  return {
    t,
    auth,
    req: (method, path, init = {}) =>
      fetch(t.url + path, {
        method,
        headers: { ...(init.auth !== null && { authorization: init.auth ?? auth }), ...init.headers },
        ...(init.body !== undefined && { body: init.body }),
      }),
  };
}

async function start(options: Parameters<typeof makeHttp>[0] = {}, user = 'alice'): Promise<Dav> {
  const t = await makeHttp({ checkAnswers: false, ...options });
  opened.push(t);
  return client(t, basic(user, await davToken(t, user)));
}

const responses = (xml: string) => xml.match(/<D:response>/g)?.length ?? 0;

describe('WebDAV sign-in', () => {
  it('challenges with Basic, takes a dav token or the password, and keeps dav tokens out of the API', async () => {
    const d = await start();
    const none = await d.req('PROPFIND', '/dav/', { auth: null, headers: { Depth: '0' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Coffer", charset="UTF-8"');
    expect((await d.req('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(207);
    expect((await d.req('PROPFIND', '/dav/', { auth: basic('alice', 'alice-password'), headers: { Depth: '0' } })).status).toBe(207);
    expect((await d.req('PROPFIND', '/dav/', { auth: basic('alice', 'wrong-password'), headers: { Depth: '0' } })).status).toBe(401);
    // The token of alice under another name, and a session or uploader token, are no WebDAV credential.
    const token = Buffer.from(d.auth.slice(6), 'base64').toString().split(':')[1]!;
    expect((await d.req('PROPFIND', '/dav/', { auth: basic('bob', token), headers: { Depth: '0' } })).status).toBe(401);
    const { token: session } = await d.t.user('alice');
    expect((await d.req('PROPFIND', '/dav/', { auth: basic('alice', session), headers: { Depth: '0' } })).status).toBe(401);
    const uploader = await d.t.request('POST', '/api/token', { token: session, json: { name: 'up' } });
    expect(uploader.body.scope).toBe('uploader');
    expect((await d.req('PROPFIND', '/dav/', { auth: basic('alice', uploader.body.token), headers: { Depth: '0' } })).status).toBe(401);
    // A dav token works only under /dav/.
    const api = await d.t.request('GET', '/api/folder', { token });
    expect(api.status).toBe(403);
    // Listed and revocable as any API token, with its scope.
    const list = await d.t.request('GET', '/api/token', { token: session });
    expect(list.body.map((x: { scope: string }) => x.scope).sort()).toEqual(['dav', 'uploader']);
  });

  it('takes no password from a user with a second factor, but their dav token', async () => {
    const d = await start();
    const { userId } = await d.t.user('alice');
    const withPassword = { auth: basic('alice', 'alice-password'), headers: { Depth: '0' } };
    expect((await d.req('PROPFIND', '/dav/', withPassword)).status).toBe(207);
    await d.t.ports.secondFactors.startTotp(userId, 'JBSWY3DPEHPK3PXP', d.t.clock.now());
    await d.t.ports.secondFactors.confirmTotp(userId, { secret: 'JBSWY3DPEHPK3PXP', step: 1, recoveryCodeHashes: [], updatedAt: d.t.clock.now() });
    const refused = await d.req('PROPFIND', '/dav/', withPassword);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain('second factor');
    expect((await d.req('PROPFIND', '/dav/', { headers: { Depth: '0' } })).status).toBe(207);
  });

  it('answers OPTIONS with the compliance classes and MS-Author-Via', async () => {
    const d = await start();
    const res = await d.req('OPTIONS', '/dav/');
    expect(res.status).toBe(200);
    expect(res.headers.get('dav')).toBe('1, 2');
    expect(res.headers.get('ms-author-via')).toBe('DAV');
    expect(res.headers.get('allow')).toContain('PROPFIND');
  });
});

describe('WebDAV mapping and content', () => {
  it('round-trips any storable name through percent-encoded hrefs, and refuses names that cannot be stored', async () => {
    const d = await start();
    const name = 'naïve #1 % ü?.txt';
    const path = `/dav/${encodeURIComponent(name)}`;
    expect((await d.req('PUT', path, { body: 'hello' })).status).toBe(201);
    const list = await (await d.req('PROPFIND', '/dav/', { headers: { Depth: '1' } })).text();
    expect(list).toContain(`<D:href>${path.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}</D:href>`);
    expect(await (await d.req('GET', path)).text()).toBe('hello');
    expect((await d.req('PUT', '/dav/a%2Fb', { body: 'x' })).status).toBe(400);
    // macOS's decomposed spelling of a name finds the stored (NFC) one.
    expect((await d.req('PUT', `/dav/${encodeURIComponent('café.txt'.normalize('NFC'))}`, { body: 'nfc' })).status).toBe(201);
    expect(await (await d.req('GET', `/dav/${encodeURIComponent('café.txt'.normalize('NFD'))}`)).text()).toBe('nfc');
    expect((await d.req('MKCOL', `/dav/${encodeURIComponent(' padded ')}`)).status).toBe(400);
  });

  it('replaces a file\'s bytes in place: same id and share, new ETag, storage counted once', async () => {
    const d = await start();
    const { token: session } = await d.t.user('alice');
    const up = await d.t.upload(session, 'old bytes', { filename: 'doc.txt' });
    const share = await d.t.request('POST', '/api/share', { token: session, json: { type: 'file', id: up.body.id } });
    const before = (await d.req('HEAD', '/dav/doc.txt')).headers.get('etag');
    expect((await d.req('PUT', '/dav/doc.txt', { body: 'the new bytes' })).status).toBe(204);
    const after = await d.t.request('GET', `/api/file/${up.body.id}`, { token: session });
    expect(after.body).toMatchObject({ id: up.body.id, size: '13', shareId: share.body.id });
    expect((await d.req('HEAD', '/dav/doc.txt')).headers.get('etag')).not.toBe(before);
    const usage = await d.t.request('GET', '/api/usage/stats', { token: session });
    expect(usage.body.storage.current).toBe('13');
    expect(usage.body.files.current).toBe(1);
    // If-Match with a stale ETag changes nothing.
    expect((await d.req('PUT', '/dav/doc.txt', { body: 'x', headers: { 'If-Match': before! } })).status).toBe(412);
    expect((await d.req('PUT', '/dav/doc.txt', { body: 'x', headers: { 'If-None-Match': '*' } })).status).toBe(412);
  });

  it('serves Range and conditional GET as the API does', async () => {
    const d = await start();
    await d.req('PUT', '/dav/r.bin', { body: '0123456789' });
    const part = await d.req('GET', '/dav/r.bin', { headers: { Range: 'bytes=2-4' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('234');
    const etag = part.headers.get('etag')!;
    expect((await d.req('GET', '/dav/r.bin', { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('refuses PROPFIND at depth infinity with propfind-finite-depth', async () => {
    const d = await start();
    const res = await d.req('PROPFIND', '/dav/', { headers: { Depth: 'infinity' } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<D:propfind-finite-depth/>');
  });

  it('reports quota (RFC 4331) on collections', async () => {
    const d = await start();
    await d.req('PUT', '/dav/q.txt', { body: '12345' });
    const body = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>';
    const text = await (await d.req('PROPFIND', '/dav/', { headers: { Depth: '0' }, body })).text();
    expect(text).toContain('<D:quota-used-bytes>5</D:quota-used-bytes>');
    expect(text).toContain(`<D:quota-available-bytes>${10 * 1024 * 1024 - 5}</D:quota-available-bytes>`);
  });
});

describe('WebDAV limits', () => {
  it('gives parallel PUTs on two instances exactly the room of the files maximum, 507 to the rest', async () => {
    const a = await start({ limits: { files: 5 } });
    const b = client(await makeHttp({ checkAnswers: false, memoryOf: a.t.container, clock: a.t.clock, limits: { files: 5 } }), a.auth);
    opened.push(b.t);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).req('PUT', `/dav/f${i}.txt`, { body: `file ${i}` }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 507)).toHaveLength(15);
    const { token: session } = await a.t.user('alice');
    const usage = await a.t.request('GET', '/api/usage/stats', { token: session });
    expect(usage.body.files.current).toBe(5);
    expect(responses(await (await a.req('PROPFIND', '/dav/', { headers: { Depth: '1' } })).text())).toBe(6);
  });

  it('answers 507 to a PUT past the storage maximum and keeps nothing of it', async () => {
    const d = await start({ limits: { storage: 1000 } });
    expect((await d.req('PUT', '/dav/big.bin', { body: new Uint8Array(5000) })).status).toBe(507);
    const { token: session } = await d.t.user('alice');
    const usage = await d.t.request('GET', '/api/usage/stats', { token: session });
    expect(usage.body.storage.current).toBe('0');
    expect(usage.body.files.current).toBe(0);
  });

  it('answers 507 to a COPY past the files maximum and keeps nothing of the partial copy', async () => {
    const d = await start({ limits: { files: 5 } });
    expect((await d.req('MKCOL', '/dav/src')).status).toBe(201);
    for (const n of [1, 2, 3]) expect((await d.req('PUT', `/dav/src/f${n}.txt`, { body: `f${n}` })).status).toBe(201);
    expect((await d.req('COPY', '/dav/src/', { headers: { Destination: `${d.t.url}/dav/dst/` } })).status).toBe(507);
    expect((await d.req('PROPFIND', '/dav/dst/', { headers: { Depth: '0' } })).status).toBe(404);
    const { token: session } = await d.t.user('alice');
    const usage = (await d.t.request('GET', '/api/usage/stats', { token: session })).body;
    expect(usage.files.current).toBe(3);
    expect(usage.folders.current).toBe(1);
    expect(usage.storage.current).toBe('6');
  });

  it('refuses a PUT beyond MAX_UPLOAD_BYTES with 413 before reading it', async () => {
    const d = await start({ maxUploadBytes: 100 });
    expect((await d.req('PUT', '/dav/big.bin', { body: new Uint8Array(101) })).status).toBe(413);
  });

  it('keeps nothing of a PUT cut halfway and gives its bytes back', async () => {
    const d = await start();
    const { port } = new URL(d.t.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`PUT /dav/cut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${d.auth}\r\nContent-Length: 2000000\r\n\r\n`);
    socket.write(Buffer.alloc(1_200_000, 1));
    const { token: session } = await d.t.user('alice');
    // Wait until the bytes are being metered (held against storage), then cut the connection.
    let metered = '0';
    for (let i = 0; i < 200 && metered === '0'; i++) {
      metered = (await d.t.request('GET', '/api/usage/stats', { token: session })).body.storage.current;
      if (metered === '0') await new Promise((r) => setTimeout(r, 20));
    }
    expect(Number(metered)).toBeGreaterThan(0);
    socket.destroy();
    let usage;
    for (let i = 0; i < 100; i++) {
      usage = await d.t.request('GET', '/api/usage/stats', { token: session });
      if (usage.body.storage.current === '0' && usage.body.files.current === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(usage!.body.storage.current).toBe('0');
    expect(usage!.body.files.current).toBe(0);
    expect((await d.req('GET', '/dav/cut.bin')).status).toBe(404);
  });

  it('answers a PROPFIND of 10,000 entries streamed, reading the folder a page at a time', async () => {
    const d = await start({ limits: { files: 20_000 } });
    const { userId } = await d.t.user('alice');
    const now = new Date();
    for (let i = 0; i < 10_000; i++) {
      await d.t.ports.files.insert({
        id: `file${String(i).padStart(5, '0')}`, ownerId: userId, folderId: null, name: `n${i}.txt`, mime: 'text/plain',
        size: 0, blobKey: `k${i}`, uploaderTokenId: null, charset: null, createdAt: now, updatedAt: now,
      });
    }
    const pages: number[] = [];
    const page = d.t.ports.files.pageInFolder.bind(d.t.ports.files);
    d.t.ports.files.pageInFolder = (owner, folder, after, limit) => {
      pages.push(limit);
      return page(owner, folder, after, limit);
    };
    const res = await d.req('PROPFIND', '/dav/', { headers: { Depth: '1' } });
    expect(res.status).toBe(207);
    expect(res.headers.get('content-length')).toBeNull();
    expect(responses(await res.text())).toBe(10_001);
    expect(Math.max(...pages)).toBeLessThanOrEqual(251);
    expect(pages.length).toBeGreaterThanOrEqual(40);
  }, 60_000);
});

describe('WebDAV XML limits', () => {
  const propfind = (d: Dav, body: string) => d.req('PROPFIND', '/dav/', { headers: { Depth: '0', 'Content-Type': 'application/xml' }, body });

  it('refuses a DOCTYPE, entities and external references', async () => {
    const d = await start();
    const billion = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><D:propfind xmlns:D="DAV:"><D:prop><x>&lol2;</x></D:prop></D:propfind>';
    expect((await propfind(d, billion)).status).toBe(400);
    const external = '<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://127.0.0.1:1/evil.dtd"><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
    expect((await propfind(d, external)).status).toBe(400);
    expect((await propfind(d, '<D:propfind xmlns:D="DAV:"><D:prop>&undefined;</D:prop></D:propfind>')).status).toBe(400);
  });

  it('refuses XML nested too deep, and bodies over 1 MiB with 413', async () => {
    const d = await start();
    const deep = `<D:propfind xmlns:D="DAV:">${'<a>'.repeat(100)}${'</a>'.repeat(100)}</D:propfind>`;
    expect((await propfind(d, deep)).status).toBe(400);
    const big = `<D:propfind xmlns:D="DAV:"><D:allprop/><!--${'x'.repeat(1024 * 1024)}--></D:propfind>`;
    expect((await propfind(d, big)).status).toBe(413);
  });

  it('bounds dead properties per item: past 100, the PROPPATCH changes nothing (507)', async () => {
    const d = await start();
    await d.req('PUT', '/dav/p.txt', { body: 'x' });
    const props = (n: number) => Array.from({ length: n }, (_, i) => `<z:p${i}>v</z:p${i}>`).join('');
    const patch = (n: number) =>
      d.req('PROPPATCH', '/dav/p.txt', { body: `<D:propertyupdate xmlns:D="DAV:" xmlns:z="urn:z"><D:set><D:prop>${props(n)}</D:prop></D:set></D:propertyupdate>` });
    const over = await (await patch(101)).text();
    expect(over).toContain('507 Insufficient Storage');
    const ok = await (await patch(100)).text();
    expect(ok).toContain('200 OK');
    const live = await d.req('PROPPATCH', '/dav/p.txt', { body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getetag>x</D:getetag></D:prop></D:set></D:propertyupdate>' });
    expect(await live.text()).toContain('403 Forbidden');
  });
});

describe('WebDAV locks across instances', () => {
  it('holds a lock taken on one instance on another', async () => {
    const a = await start();
    const b = client(await makeHttp({ checkAnswers: false, memoryOf: a.t.container, clock: a.t.clock }), a.auth);
    opened.push(b.t);
    await a.req('PUT', '/dav/l.txt', { body: 'x' });
    const lock = await a.req('LOCK', '/dav/l.txt', {
      body: '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    });
    expect(lock.status).toBe(200);
    const token = lock.headers.get('lock-token')!;
    expect((await b.req('PUT', '/dav/l.txt', { body: 'y' })).status).toBe(423);
    expect((await b.req('PUT', '/dav/l.txt', { body: 'y', headers: { If: `(${token})` } })).status).toBe(204);
    expect((await b.req('UNLOCK', '/dav/l.txt', { headers: { 'Lock-Token': token } })).status).toBe(204);
    expect((await a.req('PUT', '/dav/l.txt', { body: 'z' })).status).toBe(204);
  });
});
