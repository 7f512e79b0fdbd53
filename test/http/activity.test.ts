import { request as httpGet } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { LoggedActivityRecorder } from '../../src/boot/activity-recorder.js';
import { createLogger } from '../../src/boot/logger.js';
import { startOutboxLoop } from '../../src/boot/outbox-loop.js';

const DAY_MS = 86_400_000;
import { makeHttp, type HttpTest } from '../support/http.js';
import { shareCounts } from '../support/share-counts.js';

let t: HttpTest;
/** A test that closes its app itself (several in one test) marks it closed, so afterEach leaves it be. */
const closed = null as unknown as HttpTest;
afterEach(async () => {
  if (t !== closed) await t.close();
  t = closed;
});

interface Event {
  id: string;
  at: string;
  shareId?: string;
  requestId?: string;
  kind: string;
  fileId?: string;
  bytes?: string;
  complete?: boolean;
  client: { address: string | null; browser: string | null; os: string | null; bot: boolean };
}

const settled = () => t.container.get(LoggedActivityRecorder).settled();

async function events(token: string, path: string): Promise<Event[]> {
  await settled();
  const res = await t.request('GET', path, { token });
  expect(res.status).toBe(200);
  return res.body as Event[];
}

/** Until `check` passes: a download's event is written when its response has ended, a moment after the client saw it. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the condition never held');
}

async function sharedFile(token: string, content: string | Uint8Array) {
  const file = (await t.upload(token, content, { filename: 'report.bin', type: 'application/octet-stream' })).body;
  const share = (await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } })).body;
  return { fileId: file.id as string, shareId: share.id as string };
}

describe('activity: what is recorded', () => {
  it('200 parallel reads of a share make exactly 200 view events; the owner\'s reads none', async () => {
    // More connections from one address than the server's default allows at once.
    t = await makeHttp({ serverLimits: { maxConnectionsPerAddress: 1000 } });
    const alice = await t.userToken('alice');
    const { shareId } = await sharedFile(alice, 'hello');
    const reads = await Promise.all(Array.from({ length: 200 }, () => t.request('GET', `/api/share/${shareId}`)));
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
    await t.request('GET', `/api/share/${shareId}`, { token: alice });
    await t.request('HEAD', `/api/share/${shareId}`);
    const listed = await events(alice, `/api/share/${shareId}/activity`);
    expect(listed).toHaveLength(200);
    expect(new Set(listed.map((e) => e.id)).size).toBe(200);
    expect(listed.every((e) => e.kind === 'view' && e.shareId === shareId && e.client.bot === false)).toBe(true);
    expect((await shareCounts(t.request, alice, shareId)).views).toBe(200);
    // Newest first.
    const times = listed.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('a download records bytes and complete: all of them, and a download cut halfway', async () => {
    const size = 32 * 1024 * 1024;
    t = await makeHttp({ maxUploadBytes: size, limits: { storage: 4 * size } });
    const alice = await t.userToken('alice');
    const { shareId, fileId } = await sharedFile(alice, new Uint8Array(size).fill(7));
    const whole = await t.request('GET', `/api/share/${shareId}/content`);
    expect(whole.bytes.length).toBe(size);
    const done = await eventually(() => events(alice, `/api/share/${shareId}/activity?kind=download`), (l) => l.length === 1);
    expect(done[0]).toMatchObject({ kind: 'download', fileId, bytes: String(size), complete: true });

    // A reader that takes about half and goes away, a second later (newest first is then this one).
    t.clock.advance(1000);
    await new Promise<void>((resolve, reject) => {
      const req = httpGet(`${t.url}/api/share/${shareId}/content`, (res) => {
        let got = 0;
        res.on('data', (chunk: Buffer) => {
          got += chunk.length;
          if (got >= size / 2) {
            req.destroy();
            resolve();
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', (err) => (err.message.includes('aborted') || err.message.includes('socket hang up') ? resolve() : reject(err)));
      req.end();
    });
    const both = await eventually(() => events(alice, `/api/share/${shareId}/activity?kind=download`), (l) => l.length === 2);
    const cut = both[0]!;
    expect(cut.complete).toBe(false);
    expect(Number(cut.bytes)).toBeGreaterThan(0);
    expect(Number(cut.bytes)).toBeLessThan(size);
    expect((await shareCounts(t.request, alice, shareId)).downloads).toBe(2);
  });

  it('a later range and the owner\'s download record nothing', async () => {
    t = await makeHttp();
    const alice = await t.userToken('alice');
    const { shareId } = await sharedFile(alice, 'abcdefghij');
    expect((await t.request('GET', `/api/share/${shareId}/content`, { headers: { Range: 'bytes=5-' } })).status).toBe(206);
    expect((await t.request('GET', `/api/share/${shareId}/content`, { token: alice })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await events(alice, `/api/share/${shareId}/activity`)).toEqual([]);
  });

  it('refused passwords and gone reads are events; a missing password is not', async () => {
    t = await makeHttp();
    const alice = await t.userToken('alice');
    const file = (await t.upload(alice, 'secret stuff')).body;
    const share = (await t.request('POST', '/api/share', { token: alice, json: { type: 'file', id: file.id, password: 'open sesame', maxViews: 1 } })).body;
    expect((await t.request('GET', `/api/share/${share.id}`)).status).toBe(401);
    expect((await t.request('GET', `/api/share/${share.id}`, { headers: { 'X-Share-Password': 'wrong one' } })).status).toBe(401);
    t.clock.advance(1000);
    expect((await t.request('GET', `/api/share/${share.id}`, { headers: { 'X-Share-Password': 'open sesame' } })).status).toBe(200);
    t.clock.advance(1000);
    expect((await t.request('GET', `/api/share/${share.id}`, { headers: { 'X-Share-Password': 'open sesame' } })).status).toBe(410);
    const kinds = (await events(alice, `/api/share/${share.id}/activity`)).map((e) => e.kind);
    expect(kinds).toEqual(['gone', 'view', 'password_refused']);
    const refused = await events(alice, `/api/share/${share.id}/activity?kind=password_refused`);
    expect(refused).toHaveLength(1);
  });

  it('an archive and a file inside a shared folder are recorded with what was sent', async () => {
    t = await makeHttp();
    const alice = await t.userToken('alice');
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'Photos' } })).body;
    const inner = (await t.upload(alice, 'pixels', { folderId: folder.id, filename: 'a.png' })).body;
    const share = (await t.request('POST', '/api/share', { token: alice, json: { type: 'folder', id: folder.id } })).body;
    const zip = await t.request('GET', `/s/${share.id}/archive`);
    expect(zip.status).toBe(200);
    const file = await t.request('GET', `/s/${share.id}/files/${inner.id}`);
    expect(file.text).toBe('pixels');
    const listed = await eventually(() => events(alice, `/api/share/${share.id}/activity`), (l) => l.length === 2);
    const archive = listed.find((e) => e.kind === 'archive')!;
    expect(archive).toMatchObject({ bytes: String(zip.bytes.length), complete: true });
    expect(listed.find((e) => e.kind === 'download')).toMatchObject({ fileId: inner.id, bytes: '6', complete: true });
  });

  it('a link-preview bot is recorded with bot: true and counts nothing; a prefetch is not recorded', async () => {
    t = await makeHttp();
    const alice = await t.userToken('alice');
    const { shareId } = await sharedFile(alice, 'hello');
    const bot = 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)';
    expect((await t.request('GET', `/s/${shareId}`, { headers: { 'User-Agent': bot } })).status).toBe(200);
    expect((await t.request('GET', `/s/${shareId}`, { headers: { 'Sec-Purpose': 'prefetch' } })).status).toBe(200);
    const listed = await events(alice, `/api/share/${shareId}/activity`);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ kind: 'view', client: { bot: true } });
    expect((await shareCounts(t.request, alice, shareId)).views).toBe(0);
  });

  it('a file a request receives is an event of the request; a request gone is too', async () => {
    t = await makeHttp();
    const alice = await t.userToken('alice');
    const request = (await t.request('POST', '/api/request', { token: alice, json: { name: 'Drop box', maxFiles: 1 } })).body;
    const send = () => {
      const form = new FormData();
      form.append('file', new Blob(['twelve bytes']), 'a.txt');
      return t.request('POST', `/api/request/${request.id}/file`, { body: form });
    };
    const sent = await send();
    expect(sent.status).toBe(201);
    t.clock.advance(1000);
    expect((await send()).status).toBe(410);
    const listed = await events(alice, `/api/request/${request.id}/activity`);
    expect(listed.map((e) => e.kind)).toEqual(['gone', 'received']);
    expect(listed[1]).toMatchObject({ requestId: request.id, fileId: sent.body.id, bytes: '12', complete: true });
    expect(listed[1]!.shareId).toBeUndefined();
    const all = await events(alice, '/api/activity');
    expect(all.map((e) => e.id)).toEqual(listed.map((e) => e.id));
  });
});

describe('activity: reading it', () => {
  it('is the owner\'s only, from a session; pages newest first with limit and cursor', async () => {
    t = await makeHttp();
    const alice = await t.userToken('alice');
    const bob = await t.userToken('bob');
    const { shareId } = await sharedFile(alice, 'hello');
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      await t.request('GET', `/api/share/${shareId}`);
    }
    expect((await t.request('GET', `/api/share/${shareId}/activity`, { token: bob })).status).toBe(404);
    expect((await t.request('GET', '/api/activity', { token: bob })).body).toEqual([]);
    expect((await t.request('GET', '/api/activity')).status).toBe(401);
    expect((await t.request('GET', '/api/activity?kind=nope', { token: alice })).status).toBe(400);
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'cli' } })).body.token;
    expect((await t.request('GET', '/api/activity', { token: api })).status).toBe(403);

    await settled();
    const first = await t.request('GET', '/api/activity?limit=2', { token: alice });
    expect(first.body).toHaveLength(2);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1]!;
    const seen = [...first.body];
    let url: string | null = next;
    while (url) {
      const page = await t.request('GET', url.slice(url.indexOf('/api/')), { token: alice });
      seen.push(...page.body);
      url = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(seen).toHaveLength(5);
    const times = seen.map((e: Event) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await t.request('GET', '/api/activity?cursor=bogus', { token: alice })).status).toBe(400);
  });

  it('events go with their share', async () => {
    t = await makeHttp();
    const alice = await t.userToken('alice');
    const { shareId, fileId } = await sharedFile(alice, 'hello');
    await t.request('GET', `/api/share/${shareId}`);
    expect(await events(alice, '/api/activity')).toHaveLength(1);
    expect((await t.request('DELETE', `/api/file/${fileId}`, { token: alice })).status).toBe(204);
    expect(await events(alice, '/api/activity')).toEqual([]);
  });
});

describe('activity: the client address', () => {
  const seenAs = async (addresses: 'truncated' | 'full' | 'none', forwarded: string) => {
    t = await makeHttp({ trustProxy: 1, config: { activityAddresses: addresses } });
    const alice = await t.userToken('alice');
    const { shareId } = await sharedFile(alice, 'hello');
    const agent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
    await t.request('GET', `/api/share/${shareId}`, { headers: { 'X-Forwarded-For': forwarded, 'User-Agent': agent } });
    const [event] = await events(alice, `/api/share/${shareId}/activity`);
    await t.close();
    t = closed;
    return event!.client;
  };

  it('truncated keeps an IPv4 /24 and an IPv6 /48 (the default)', async () => {
    expect(await seenAs('truncated', '203.0.113.77')).toEqual({ address: '203.0.113.0/24', browser: 'Firefox', os: 'Windows', bot: false });
    expect((await seenAs('truncated', '2001:db8:abcd:12:1:2:3:4')).address).toBe('2001:db8:abcd::/48');
    expect((await seenAs('truncated', '::ffff:198.51.100.9')).address).toBe('198.51.100.0/24');
  });

  it('full keeps the address, none keeps nothing', async () => {
    expect((await seenAs('full', '203.0.113.77')).address).toBe('203.0.113.77');
    expect((await seenAs('full', '2001:db8::1')).address).toBe('2001:db8::1');
    expect((await seenAs('none', '203.0.113.77')).address).toBeNull();
  });
});

describe('activity: retention', () => {
  it('the outbox loop removes events older than ACTIVITY_RETENTION_DAYS (the memory adapter\'s sweep)', async () => {
    // A session that outlives the 91 days the clock moves.
    t = await makeHttp({ sessionTtlMs: 365 * DAY_MS, sessionMaxMs: 365 * DAY_MS });
    const alice = await t.userToken('alice');
    const { shareId } = await sharedFile(alice, 'hello');
    await t.request('GET', `/api/share/${shareId}`);
    t.clock.advance(10 * DAY_MS);
    await t.request('GET', `/api/share/${shareId}`);
    expect(await events(alice, '/api/activity')).toHaveLength(2);
    t.clock.advance(81 * DAY_MS);
    const stop = startOutboxLoop(t.ports, createLogger('silent'), { retentionMs: 90 * DAY_MS, idleMs: 5 });
    try {
      await eventually(() => events(alice, '/api/activity'), (listed) => listed.length === 1);
    } finally {
      await stop();
    }
  });
});
