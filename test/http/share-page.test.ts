import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { shareCounts } from '../support/share-counts.js';

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140 Safari/537.36';
// No slash (an upload's file name loses everything up to its last one), no " (FormData sends it as %22).
const XSS = `'><img src=x onerror=alert(1)><b>bold`;

let t: HttpTest;
let token: string;
beforeAll(async () => {
  t = await makeHttp();
  token = await t.userToken('alice');
});
afterAll(() => t.close());

async function shareFile(content: string | Uint8Array, filename: string, type: string, options = {}) {
  const file = await t.upload(token, content, { filename, type });
  expect(file.status).toBe(201);
  const share = await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.body.id, ...options } });
  expect(share.status).toBe(201);
  return share.body.id as string;
}

const counts = (id: string) => shareCounts(t.request, token, id);

/** Every card tag of a page, by its property or name. */
function cardTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const match of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) {
    tags.set(match[1]!, match[2]!);
  }
  return tags;
}

function pageData(html: string): unknown {
  const block = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html);
  return JSON.parse(block![1]!);
}

describe('/s/{id}: the page knows the share when it answers', () => {
  it('an image share carries escaped card tags with its picture, and the page data holds the share', async () => {
    const id = await shareFile('png bytes', `${XSS}.png`, 'image/png');
    const res = await t.request('GET', `/s/${id}`, { headers: { 'User-Agent': BROWSER } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const tags = cardTags(res.text);
    expect(tags.get('og:title')).toBe('&#39;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;b&gt;bold.png');
    expect(tags.get('og:description')).toBe('9 bytes · shared by alice');
    expect(tags.get('og:image')).toBe(`${t.url}/s/${id}/content`);
    expect(tags.get('og:url')).toBe(`${t.url}/s/${id}`);
    expect(tags.get('twitter:card')).toBe('summary_large_image');
    // The name appears nowhere as markup: no img or b element, in the head or in the data block.
    expect(res.text).not.toMatch(/<img|<b>/);
    expect(pageData(res.text)).toMatchObject({ state: 'open', share: { id, file: { name: `${XSS}.png` } } });
  });

  it('a video share carries og:video; a paste holding </script> cannot end the data block', async () => {
    const video = await shareFile('webm', 'clip.webm', 'video/webm');
    expect(cardTags((await t.request('GET', `/s/${video}`)).text).get('og:video')).toBe(`${t.url}/s/${video}/content`);

    const content = `</script><script>alert(1)</script>\u2028`;
    const paste = await t.request('POST', '/api/paste', { token, json: { content, share: true } });
    const res = await t.request('GET', `/s/${paste.body.shareId}`);
    expect(res.text.match(/<\/script>/g)).toHaveLength(2);
    expect(pageData(res.text)).toMatchObject({ state: 'open', share: { paste: { content } } });
  });

  it('one visit counts one view; a link-preview bot counts nothing, for the page nor for the card picture', async () => {
    const id = await shareFile('png bytes', 'cat.png', 'image/png', { maxViews: 2, maxDownloads: 1 });
    for (const agent of [
      SLACK,
      'Twitterbot/1.0',
      'facebookexternalhit/1.1',
      'Mozilla/5.0 (compatible; Discordbot/2.0)',
    ]) {
      expect((await t.request('GET', `/s/${id}`, { headers: { 'User-Agent': agent } })).status).toBe(200);
      expect((await t.request('GET', `/s/${id}/content`, { headers: { 'User-Agent': agent } })).status).toBe(200);
    }
    expect(await counts(id)).toEqual({ views: 0, downloads: 0 });

    expect((await t.request('GET', `/s/${id}`, { headers: { 'User-Agent': BROWSER } })).status).toBe(200);
    // The page's preview is part of the visit; this share has a download maximum, so it uses a download.
    expect((await t.request('GET', `/s/${id}/content?preview=1`)).status).toBe(200);
    expect(await counts(id)).toEqual({ views: 1, downloads: 1 });
    // Exhausted: a person now gets the 410 page, and so does a bot (no card of a dead link).
    expect((await t.request('GET', `/s/${id}`)).status).toBe(410);
    const bot = await t.request('GET', `/s/${id}`, { headers: { 'User-Agent': SLACK } });
    expect(bot.status).toBe(410);
    expect(cardTags(bot.text).get('og:title')).toBe('Share no longer available');
    expect(cardTags(bot.text).has('og:image')).toBe(false);
  });

  it("a browser's own prefetch or prerender counts nothing: nobody has opened the share yet", async () => {
    const id = await shareFile('zip me', 'doc.txt', 'text/plain', { maxViews: 1, maxDownloads: 1 });
    const asked: Record<string, string>[] = [{ 'Sec-Purpose': 'prefetch' }, { 'Sec-Purpose': 'prefetch;prerender' }, { Purpose: 'prefetch' }];
    for (const headers of asked) {
      expect((await t.request('GET', `/s/${id}`, { headers })).status).toBe(200);
      expect((await t.request('GET', `/s/${id}/content`, { headers })).status).toBe(200);
    }
    expect(await counts(id)).toEqual({ views: 0, downloads: 0 });
    expect((await t.request('GET', `/s/${id}`)).status).toBe(200);
    expect(await counts(id)).toEqual({ views: 1, downloads: 0 });
  });

  it("the owner's own visits, signed in in this browser, count nothing, even once the share has ended", async () => {
    const id = await shareFile('owner bytes', 'mine.txt', 'text/plain', { maxViews: 1 });
    const own = { 'x-coffer-csrf': '1', origin: t.url, 'sec-fetch-site': 'same-origin' };
    const session = await t.request('POST', '/api/auth/session', {
      json: { username: 'alice', password: 'alice-password' },
      headers: own,
    });
    expect(session.status).toBe(200);
    const cookie = (session.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const navigation = { cookie, 'sec-fetch-site': 'same-origin', 'User-Agent': BROWSER };
    expect((await t.request('GET', `/s/${id}`, { headers: navigation })).status).toBe(200);
    expect(await counts(id)).toEqual({ views: 0, downloads: 0 });
    // A stranger's visit uses the one view; the owner still sees the page, as the API lets them see the share.
    expect((await t.request('GET', `/s/${id}`, { headers: { 'User-Agent': BROWSER } })).status).toBe(200);
    expect((await t.request('GET', `/s/${id}`, { headers: { 'User-Agent': BROWSER } })).status).toBe(410);
    expect((await t.request('GET', `/s/${id}`, { headers: navigation })).status).toBe(200);
    expect(await counts(id)).toEqual({ views: 1, downloads: 0 });
  });

  it('previews count no download on a share without a download maximum; the Download link does', async () => {
    const id = await shareFile('hello', 'a.txt', 'text/plain');
    await t.request('GET', `/s/${id}`);
    await t.request('GET', `/s/${id}/content?preview=1`);
    await t.request('GET', `/s/${id}/content?preview=1`, { headers: { Range: 'bytes=0-1' } });
    expect(await counts(id)).toEqual({ views: 1, downloads: 0 });
    await t.request('GET', `/s/${id}/content`);
    expect(await counts(id)).toEqual({ views: 1, downloads: 1 });
  });

  it('an unknown share is a 404 page, an expired one a 410 page, each with a card that names nothing', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', '%3Cscript%3E', 'x'.repeat(300)]) {
      const res = await t.request('GET', `/s/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(pageData(res.text)).toEqual({ state: 'not-found' });
      expect(cardTags(res.text).get('og:title')).toBe('Share not found');
    }
    const id = await shareFile('x', 'soon.txt', 'text/plain', { expiresAt: '2026-11-22T11:00:00.000Z' });
    t.clock.advance(2 * 60 * 60 * 1000);
    const res = await t.request('GET', `/s/${id}`);
    expect(res.status).toBe(410);
    expect(pageData(res.text)).toEqual({ state: 'gone' });
    expect(res.text).not.toContain('soon.txt');
  });

  it('a protected share reveals only that it is protected, and counts nothing until unlocked', async () => {
    const id = await shareFile('secret bytes', 'secret-plan.png', 'image/png', { password: 'open sesame' });
    const res = await t.request('GET', `/s/${id}`, { headers: { 'User-Agent': SLACK } });
    expect(res.status).toBe(200);
    expect(pageData(res.text)).toEqual({ state: 'locked' });
    expect(cardTags(res.text).get('og:title')).toBe('Protected share');
    expect(res.text).not.toMatch(/secret-plan|alice|og:image/);
    await t.request('GET', `/s/${id}`);
    expect(await counts(id)).toEqual({ views: 0, downloads: 0 });
  });
});

describe('/s/{id}/f/{folderId}: the page of one folder inside a folder share', () => {
  async function folder(name: string, parentId: string | null = null): Promise<string> {
    const res = await t.request('POST', '/api/folder', { token, json: { name, parentId } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }
  async function share(type: string, id: string, options = {}): Promise<string> {
    const res = await t.request('POST', '/api/share', { token, json: { type, id, ...options } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }
  /** A shared folder `root` with `sub` and `deep` below it, beside a `sibling` under one `parent`. */
  async function tree(options = {}) {
    const parent = await folder('Parent');
    const root = await folder('Shared', parent);
    const sub = await folder('Sub', root);
    const deep = await folder('Deep', sub);
    const sibling = await folder('Sibling', parent);
    return { parent, root, sub, deep, sibling, id: await share('folder', root, options) };
  }

  it('serves the share page with the folder to show, and counts one view as the share page does', async () => {
    const { root, deep, id } = await tree();
    const res = await t.request('GET', `/s/${id}/f/${deep}`, { headers: { 'User-Agent': BROWSER } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(pageData(res.text)).toMatchObject({
      state: 'open',
      folderId: deep,
      share: { id, url: `${t.url}/s/${id}`, type: 'folder', folder: { id: root, name: 'Shared' } },
    });
    expect(cardTags(res.text).get('og:url')).toBe(`${t.url}/s/${id}/f/${deep}`);
    expect(await counts(id)).toEqual({ views: 1, downloads: 0 });
    // The shared folder's own id is a folder of it too; a bot peeking at a folder's page counts nothing.
    expect(pageData((await t.request('GET', `/s/${id}/f/${root}`)).text)).toMatchObject({ folderId: root });
    expect((await t.request('GET', `/s/${id}/f/${deep}`, { headers: { 'User-Agent': SLACK } })).status).toBe(200);
    expect(await counts(id)).toEqual({ views: 2, downloads: 0 });
  });

  it('is the 404 page for a folder the share does not reach, counting nothing', async () => {
    const { parent, sibling, id } = await tree();
    const bob = await t.userToken('bob');
    const foreign = (await t.request('POST', '/api/folder', { token: bob, json: { name: 'Bobs' } })).body.id as string;
    for (const outside of [parent, sibling, foreign, 'AAAAAAAAAAAAAAAAAAAAAA', 'x'.repeat(300), '%3Cscript%3E']) {
      const res = await t.request('GET', `/s/${id}/f/${outside}`);
      expect(res.status, outside).toBe(404);
      expect(pageData(res.text)).toEqual({ state: 'not-found' });
      expect(res.text).not.toMatch(/Shared|Parent|Sibling|alice/);
    }
    expect(await counts(id)).toEqual({ views: 0, downloads: 0 });

    // Shares of other kinds have no folder pages, whichever folder is named.
    const { root: other } = await tree();
    const collection = await t.request('POST', '/api/collection', { token, json: { name: 'C' } });
    const file = (await t.upload(token, 'x', { filename: 'x.txt', folderId: other })).body.id as string;
    for (const kind of [await share('collection', collection.body.id), await share('file', file)]) {
      expect((await t.request('GET', `/s/${kind}/f/${other}`)).status).toBe(404);
      expect(await counts(kind)).toEqual({ views: 0, downloads: 0 });
    }
    // A share that does not exist is the same 404 page.
    expect((await t.request('GET', `/s/AAAAAAAAAAAAAAAAAAAAAA/f/${other}`)).status).toBe(404);
  });

  it('a protected share: the password form, then with the grant the folder; a folder outside is still 404', async () => {
    const { sub, sibling, id } = await tree({ password: 'open sesame' });
    const locked = await t.request('GET', `/s/${id}/f/${sub}`);
    expect(locked.status).toBe(200);
    expect(pageData(locked.text)).toEqual({ state: 'locked', folderId: sub });
    expect(locked.text).not.toMatch(/Shared|Sub|alice/);
    expect(await counts(id)).toEqual({ views: 0, downloads: 0 });

    const unlocked = await t.request('POST', `/s/${id}/unlock`, { json: { password: 'open sesame' } });
    expect(unlocked.status).toBe(200);
    const cookie = unlocked.headers.get('set-cookie')!.split(';')[0]!;
    const open = await t.request('GET', `/s/${id}/f/${sub}`, { headers: { Cookie: cookie } });
    expect(open.status).toBe(200);
    expect(pageData(open.text)).toMatchObject({ state: 'open', folderId: sub, share: { id } });
    const outside = await t.request('GET', `/s/${id}/f/${sibling}`, { headers: { Cookie: cookie } });
    expect(outside.status).toBe(404);
    // The unlock and the visit with the grant: one view each, as on /s/{id}; the 404 counted nothing.
    expect(await counts(id)).toEqual({ views: 2, downloads: 0 });
  });
});
