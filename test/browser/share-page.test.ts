import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { recordWebm, solidPng } from '../support/media.js';
import { shareCounts } from '../support/share-counts.js';
import { tempDir } from '../support/temp.js';
import { readZip } from '../support/zip-reader.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const UNZIP = '/usr/bin/unzip';

/** The names Info-ZIP's `unzip -l` lists in an archive; null, with a line saying why, when it is not installed. */
function unzipList(bytes: Buffer): string[] | null {
  if (!existsSync(UNZIP)) {
    console.log(`skipped: no ${UNZIP} to list the archive with (apt-get install unzip)`);
    return null;
  }
  const file = join(tempDir('zip'), 'saved.zip');
  writeFileSync(file, bytes);
  const run = spawnSync(UNZIP, ['-l', file], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  // A header, a dashed line, one "length date time name" line per entry, a dashed line, the totals.
  const lines = run.stdout.split('\n');
  const first = lines.findIndex((line) => line.startsWith('---------'));
  const last = lines.findIndex((line, i) => i > first && line.startsWith('---------'));
  return lines.slice(first + 1, last).map((line) => /^\s*\d+\s+\S+\s+\S+\s{3}(.*)$/.exec(line)![1]!);
}

const XSS = '<img src=x onerror=alert(1)>';
/** Elements an XSS attempt would create: none of them is ever part of the page's own markup. */
const INJECTED = 'main script, main iframe, main object, main b, main svg, main img[src="x"]';

describe.skipIf(!chromiumFound)('the share page in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
    token = await t.userToken('alice');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function share(type: string, id: string, options: Record<string, unknown> = {}): Promise<string> {
    const res = await t.request('POST', '/api/share', { token, json: { type, id, ...options } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function upload(bytes: Uint8Array | string, filename: string, type: string, folderId?: string) {
    const file = await t.upload(token, bytes, { filename, type, folderId });
    expect(file.status).toBe(201);
    return file.body.id as string;
  }

  async function folder(name: string, parentId: string | null = null): Promise<string> {
    const res = await t.request('POST', '/api/folder', { token, json: { name, parentId } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

  /** Clicks a link that downloads and hands back the saved bytes and name. */
  async function download(page: Page, name: string | RegExp): Promise<{ name: string; bytes: Buffer }> {
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name }).first().click(),
    ]);
    return { name: saved.suggestedFilename(), bytes: readFileSync(await saved.path()) };
  }

  async function unlockWith(page: Page, password: string): Promise<void> {
    const field = page.getByLabel('Password');
    await field.fill(password);
    await field.press('Enter');
  }

  it('a file share: name, size, type, owner, and its Download link saves the very bytes', async () => {
    const bytes = randomBytes(50_000);
    const id = await share('file', await upload(bytes, 'report 2026.bin', 'application/octet-stream'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);

    await expect.poll(() => heading(page)).toBe('report 2026.bin');
    const facts = await page.locator('dl').innerText();
    expect(facts).toContain('50 kB\n50,000 bytes');
    expect(facts).toContain('application/octet-stream');
    expect(facts).toContain('alice');
    expect(await page.title()).toBe('report 2026.bin · Coffer');
    expect(await page.locator('main').innerText()).toContain('No preview for this kind of file');

    const saved = await download(page, 'Download');
    expect(saved.name).toBe('report 2026.bin');
    expect(saved.bytes.equals(bytes)).toBe(true);
    assertClean();
  });

  it('an image share shows the picture inline; an SVG is never rendered, only its source text', async () => {
    const id = await share('file', await upload(solidPng(40, 30, [200, 40, 40]), 'red.png', 'image/png'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    const picture = page.getByRole('img', { name: 'Preview of red.png' });
    await expect.poll(() => picture.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(40);
    await page.screenshot({ path: screenshotPath('share-image-desktop'), fullPage: true });

    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`;
    const svgId = await share('file', await upload(svg, 'logo.svg', 'image/svg+xml'));
    await page.goto(`${t.url}/s/${svgId}`);
    await expect.poll(() => page.locator('pre code').textContent()).toBe(svg);
    expect(await page.locator('main img, main svg, main object, main iframe').count()).toBe(0);
    assertClean();
  });

  it('a code file is highlighted as text: spans of tokens, markup in it stays characters', async () => {
    const code = `// ${XSS}\nconst greeting: string = "<b>hi</b>";\nexport function f() { return 42; }\n`;
    const id = await share('file', await upload(code, 'hello.ts', 'application/octet-stream'));
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await expect.poll(() => page.locator('pre code').textContent()).toBe(code);
    // Plain text first, coloured once the highlighter's chunk has come.
    await expect.poll(() => page.locator('pre code .tk-keyword').count()).toBeGreaterThan(2);
    expect(await page.locator('pre code .tk-string').first().textContent()).toBe('"<b>hi</b>"');
    expect(await page.locator(INJECTED).count()).toBe(0);
    assertClean();
  });

  it('a paste: highlighted by its type, copy and raw; an XSS attempt in it and its name creates nothing', async () => {
    const content = `${XSS}\n<script>alert(2)</script>\n<b>bold?</b>`;
    const paste = await t.request('POST', '/api/paste', { token, json: { name: XSS, type: 'html', content } });
    expect(paste.status).toBe(201);
    const id = await share('paste', paste.body.id);
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);

    await expect.poll(() => page.locator('pre code').textContent()).toBe(content);
    await expect.poll(() => page.locator('pre code .tk-tag').count()).toBeGreaterThan(0);
    expect(await heading(page)).toBe(XSS);
    await page.waitForLoadState('networkidle');
    expect(await page.locator(INJECTED).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Copied|selected/);
    expect(await page.getByRole('link', { name: 'Raw' }).getAttribute('href')).toBe(`/s/${id}/content`);
    assertClean();
  });

  it('a folder: browse into subfolders and back by the breadcrumbs, preview and download inside, zip it all', async () => {
    const root = await folder(`Photos ${XSS}`);
    const inner = await folder(`inner ${XSS}`, root);
    const files = new Map([
      [`Photos ${XSS}/a.txt`, Buffer.from('one')],
      [`Photos ${XSS}/inner ${XSS}/deep.txt`, Buffer.from('the deep text')],
    ]);
    await upload(files.get(`Photos ${XSS}/a.txt`)!, 'a.txt', 'text/plain', root);
    await upload(files.get(`Photos ${XSS}/inner ${XSS}/deep.txt`)!, 'deep.txt', 'text/plain', inner);
    const id = await share('folder', root);

    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await expect.poll(() => heading(page)).toBe(`Photos ${XSS}`);
    expect(await page.locator('dl').innerText()).toContain('1 file, 1 folder');

    await page.getByRole('link', { name: `inner ${XSS}` }).click();
    await page.getByRole('button', { name: 'Preview deep.txt' }).click();
    await expect.poll(() => page.locator('pre code').textContent()).toBe('the deep text');
    await page.screenshot({ path: screenshotPath('share-folder-desktop'), fullPage: true });
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    expect(await crumbs.innerText()).toContain(`inner ${XSS}`);
    const deep = await download(page, 'Download deep.txt');
    expect(deep.bytes.toString()).toBe('the deep text');

    await crumbs.getByRole('link', { name: `Photos ${XSS}` }).click();
    await page.getByRole('link', { name: 'Download a.txt' }).waitFor();
    const zip = await download(page, 'Download all (.zip)');
    // Chromium writes < and > in a saved file's name as _.
    expect(zip.name).toBe('Photos _img src=x onerror=alert(1)_.zip');
    const entries = readZip(zip.bytes).filter((entry) => !entry.name.endsWith('/'));
    expect(new Map(entries.map((e) => [e.name, e.bytes.toString()]))).toEqual(
      new Map([...files].map(([name, bytes]) => [name, bytes.toString()])),
    );
    expect(await page.locator(INJECTED).count()).toBe(0);
    assertClean();
  });

  it('works with the keyboard alone: into a subfolder, a preview, back by the breadcrumbs, the password form', async () => {
    const root = await folder('Keys');
    const sub = await folder('Sub', root);
    await upload('typed text', 'note.txt', 'text/plain', sub);
    const id = await share('folder', root);
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await page.getByRole('link', { name: 'Sub' }).waitFor();

    /** Presses Tab (or `key`) until the focused element's label or text is `name`; fails past 30 presses. */
    const tabTo = async (name: string, key = 'Tab') => {
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press(key);
        const focused = await page.evaluate<string>(`(() => {
          const el = document.activeElement;
          return (el.getAttribute('aria-label') || el.labels?.[0]?.textContent || el.textContent || '').trim();
        })()`);
        if (focused === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo('📁 Sub');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/s/${id}/f/${sub}`);
    await tabTo('Preview note.txt');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('pre code').textContent()).toBe('typed text');
    await tabTo('Keys', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Sub' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/s/${id}`);

    const locked = await share('file', await upload('x', 'locked.txt', 'text/plain'), { password: 'keyboard only' });
    await page.goto(`${t.url}/s/${locked}`);
    await tabTo('Password');
    await page.keyboard.type('keyboard only');
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page)).toBe('locked.txt');
    assertClean();
  });

  /** The folder a share's folder browser shows: the breadcrumbs' current entry. */
  const current = (page: Page) => page.locator('.breadcrumbs [aria-current="location"]').textContent();
  const pathOf = (page: Page) => new URL(page.url()).pathname;

  /** Album / Year 2025 / Summer, a file in the first and the last, shared. */
  async function album(options: Record<string, unknown> = {}) {
    const root = await folder('Album');
    const year = await folder('Year 2025', root);
    const summer = await folder('Summer', year);
    await upload('cover', 'cover.txt', 'text/plain', root);
    await upload('sand and sea', 'beach.txt', 'text/plain', summer);
    return { root, year, summer, id: await share('folder', root, options) };
  }

  it('each folder has its own address: opened directly, Back and Forward between folders, a reload keeps it', async () => {
    const { year, summer, id } = await album();
    const { page, assertClean } = await watchedPage(browser);

    await page.goto(`${t.url}/s/${id}/f/${summer}`);
    await expect.poll(() => current(page)).toBe('Summer');
    expect(await heading(page)).toBe('Album');
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    expect(await crumbs.locator('li').allInnerTexts()).toEqual(['Album', 'Year 2025', 'Summer']);
    await page.getByRole('link', { name: 'Download beach.txt' }).waitFor();
    // The breadcrumbs are real links to the folders' addresses; the shared folder's is the share's own.
    expect(await crumbs.getByRole('link', { name: 'Year 2025' }).getAttribute('href')).toBe(`/s/${id}/f/${year}`);
    expect(await crumbs.getByRole('link', { name: 'Album' }).getAttribute('href')).toBe(`/s/${id}`);
    await page.screenshot({ path: screenshotPath('share-folder-address-desktop'), fullPage: true });

    await crumbs.getByRole('link', { name: 'Year 2025' }).click();
    await expect.poll(() => current(page)).toBe('Year 2025');
    expect(pathOf(page)).toBe(`/s/${id}/f/${year}`);
    await crumbs.getByRole('link', { name: 'Album' }).click();
    await expect.poll(() => current(page)).toBe('Album');
    expect(pathOf(page)).toBe(`/s/${id}`);
    await page.getByRole('link', { name: 'Download cover.txt' }).waitFor();

    await page.goBack();
    await expect.poll(() => current(page)).toBe('Year 2025');
    expect(pathOf(page)).toBe(`/s/${id}/f/${year}`);
    await page.goBack();
    await expect.poll(() => current(page)).toBe('Summer');
    expect(pathOf(page)).toBe(`/s/${id}/f/${summer}`);
    await page.getByRole('link', { name: 'Download beach.txt' }).waitFor();
    await page.goForward();
    await expect.poll(() => current(page)).toBe('Year 2025');
    expect(pathOf(page)).toBe(`/s/${id}/f/${year}`);

    await page.reload();
    await expect.poll(() => current(page)).toBe('Year 2025');
    await page.getByRole('list', { name: 'Folders' }).getByRole('link', { name: 'Summer' }).click();
    await expect.poll(() => current(page)).toBe('Summer');
    expect(pathOf(page)).toBe(`/s/${id}/f/${summer}`);
    await page.goBack();
    await expect.poll(() => current(page)).toBe('Year 2025');
    // Two loads of the page (the first and the reload) are two visits; moving between folders counted nothing.
    expect(await shareCounts(t.request, token, id)).toEqual({ views: 2, downloads: 0 });
    assertClean();
  });

  it("a folder's page offers its own zip: one top-level folder named after it, listed by unzip -l", async () => {
    const { year, id } = await album();
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}/f/${year}`);
    await expect.poll(() => current(page)).toBe('Year 2025');

    const folderZip = await download(page, 'Download this folder (.zip)');
    expect(folderZip.name).toBe('Year 2025.zip');
    const inFolder = ['Year 2025/', 'Year 2025/Summer/', 'Year 2025/Summer/beach.txt'];
    expect(readZip(folderZip.bytes).map((e) => e.name).sort()).toEqual(inFolder);
    const listed = unzipList(folderZip.bytes);
    if (listed) expect(listed.sort()).toEqual(inFolder);

    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'Album' }).click();
    const whole = await download(page, 'Download all (.zip)');
    expect(whole.name).toBe('Album.zip');
    const below = ['', 'Year 2025/', 'Year 2025/Summer/', 'Year 2025/Summer/beach.txt', 'cover.txt'];
    const all = below.map((path) => `Album/${path}`);
    expect(readZip(whole.bytes).map((e) => e.name).sort()).toEqual(all.sort());
    const listedAll = unzipList(whole.bytes);
    if (listedAll) expect(listedAll.sort()).toEqual(all.sort());
    expect(await shareCounts(t.request, token, id)).toEqual({ views: 1, downloads: 2 });
    assertClean();
  });

  it("a protected folder's address in a fresh browser: the password, then that same folder, at 375 px too", async () => {
    const { summer, id } = await album({ password: 'open sesame' });
    const elsewhere = await folder('Elsewhere');
    const phone = { viewport: { width: 375, height: 740 } };

    const first = await watchedPage(browser, phone);
    expect((await first.page.goto(`${t.url}/s/${id}/f/${summer}`))!.status()).toBe(200);
    await first.page.getByLabel('Password').waitFor();
    expect(await first.page.locator('main').innerText()).not.toMatch(/Album|Summer|beach/);
    await first.page.screenshot({ path: screenshotPath('share-folder-address-locked-375'), fullPage: true });
    await unlockWith(first.page, 'open sesame');
    await expect.poll(() => current(first.page)).toBe('Summer');
    expect(pathOf(first.page)).toBe(`/s/${id}/f/${summer}`);
    await first.page.getByRole('link', { name: 'Download beach.txt' }).waitFor();
    expect(await first.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await first.page.screenshot({ path: screenshotPath('share-folder-address-375'), fullPage: true });
    // A reload opens the same folder without the password (the grant of this browser).
    await first.page.reload();
    await expect.poll(() => current(first.page)).toBe('Summer');
    // With the grant, a folder outside the share is the 404 page.
    first.expectHttpError(`/s/${id}/f/${elsewhere}`, 404);
    expect((await first.page.goto(`${t.url}/s/${id}/f/${elsewhere}`))!.status()).toBe(404);
    await expect.poll(() => heading(first.page)).toBe('Folder not found');
    first.assertClean();

    // Another browser knows nothing of that unlock: the password again, then the same folder.
    const second = await watchedPage(browser);
    await second.page.goto(`${t.url}/s/${id}/f/${summer}`);
    await unlockWith(second.page, 'open sesame');
    await expect.poll(() => current(second.page)).toBe('Summer');
    second.assertClean();

    // Before the password nothing tells a folder outside the share; once unlocked the page says it is not there.
    const third = await watchedPage(browser);
    expect((await third.page.goto(`${t.url}/s/${id}/f/${elsewhere}`))!.status()).toBe(200);
    await unlockWith(third.page, 'open sesame');
    await third.page.getByText('This folder is not part of this share.').waitFor();
    await third.page.getByRole('link', { name: 'Open the shared folder' }).click();
    await expect.poll(() => current(third.page)).toBe('Album');
    expect(pathOf(third.page)).toBe(`/s/${id}`);
    third.assertClean();
  });

  it('a collection: a grid of its pictures, every file listed, a zip of all', async () => {
    const colours: [number, number, number][] = [
      [255, 0, 0],
      [0, 160, 0],
    ];
    const ids = await Promise.all(colours.map((c, i) => upload(solidPng(20, 20, c), `pic-${i}.png`, 'image/png')));
    ids.push(await upload('notes', 'notes.txt', 'text/plain'));
    const collection = await t.request('POST', '/api/collection', { token, json: { name: 'Best of' } });
    for (const fileId of ids) await t.request('PUT', `/api/collection/${collection.body.id}/file/${fileId}`, { token });
    const id = await share('collection', collection.body.id);

    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await expect.poll(() => heading(page)).toBe('Best of');
    const grid = page.getByRole('list', { name: 'Pictures' });
    await expect.poll(() => grid.locator('img').count()).toBe(2);
    for (const img of await grid.locator('img').all()) {
      await expect.poll(() => img.evaluate((el: { naturalWidth: number }) => el.naturalWidth)).toBe(20);
    }
    expect(await page.getByRole('list', { name: 'Files' }).locator('li').count()).toBe(3);
    const zip = await download(page, 'Download all (.zip)');
    expect(
      readZip(zip.bytes)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['Best of/', 'Best of/notes.txt', 'Best of/pic-0.png', 'Best of/pic-1.png']);
    assertClean();
  });

  it('a protected video: a wrong password says so, the right one opens it, and the video seeks', async () => {
    const password = 'correct horse ✓ pässwort';
    const video = await recordWebm(browser);
    const id = await share('file', await upload(video, 'clip.webm', 'video/webm'), { password });
    const { page, expectHttpError, assertClean } = await watchedPage(browser);
    expectHttpError(`/s/${id}/unlock`, 401);
    const ranges: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/content')) ranges.push(request.headers()['range'] ?? 'whole');
    });
    await page.goto(`${t.url}/s/${id}`);

    await unlockWith(page, 'wrong password');
    const field = page.getByLabel('Password');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('That password is wrong. Check it and try again.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await page.keyboard.press('Control+A');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page)).toBe('clip.webm');
    expect(await page.locator('#share-title').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(page.url()).toBe(`${t.url}/s/${id}`);

    const player = page.getByLabel('Video: clip.webm');
    await expect
      .poll(() => player.evaluate((v: { readyState: number }) => v.readyState), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1);
    const duration = await player.evaluate((v: { duration: number }) => v.duration);
    expect(duration).toBeGreaterThan(2);
    const seeked = await page.evaluate<number>(`new Promise((resolve) => {
      const v = document.querySelector('video');
      v.addEventListener('seeked', () => resolve(v.currentTime), { once: true });
      v.currentTime = ${duration} * 0.7;
    })`);
    expect(seeked).toBeCloseTo(duration * 0.7, 0);
    // The player reads by ranges (what lets it jump into a long video), and the whole of it is seekable.
    expect(ranges).toContain('bytes=0-');
    expect(await page.evaluate<number>(`document.querySelector('video').seekable.end(0)`)).toBeCloseTo(duration, 0);

    const saved = await download(page, 'Download');
    expect(saved.bytes.equals(video)).toBe(true);
    assertClean();
  });

  it('a protected folder: once unlocked, its zip downloads through a plain link, entries matching the uploads', async () => {
    const root = await folder('Private');
    const bytes = randomBytes(120_000);
    await upload(bytes, 'data.bin', 'application/octet-stream', root);
    const id = await share('folder', root, { password: 'let me in please' });
    const { page, assertClean } = await watchedPage(browser);
    await page.goto(`${t.url}/s/${id}`);
    await unlockWith(page, 'let me in please');
    await expect.poll(() => heading(page)).toBe('Private');
    const zip = await download(page, 'Download all (.zip)');
    const [top, entry] = readZip(zip.bytes);
    expect(top!.name).toBe('Private/');
    expect(entry!.name).toBe('Private/data.bin');
    expect(entry!.bytes.equals(bytes)).toBe(true);
    assertClean();
  });

  it('says when guessing is paused and keeps the Open button off until then', async () => {
    const id = await share('file', await upload(randomBytes(10), 'guarded.bin', 'application/octet-stream'), {
      password: 'the right one',
    });
    let status = 0;
    for (let guess = 0; guess < 20 && status !== 429; guess += 1) {
      status = (await t.request('POST', `/s/${id}/unlock`, { json: { password: `guess ${guess}` } })).status;
    }
    expect(status).toBe(429);
    // On a phone's width, where the message and the disabled button must both still show.
    const phone = { viewport: { width: 375, height: 740 } };
    const { page, expectHttpError, assertClean } = await watchedPage(browser, phone);
    expectHttpError(`/s/${id}/unlock`, 429);
    await page.goto(`${t.url}/s/${id}`);
    await unlockWith(page, 'the right one');
    const alert = page.getByRole('alert');
    // The wait in words: the test clock stands still, so the pause is the whole 30-minute window.
    await expect.poll(() => alert.textContent()).toBe('Too many wrong passwords. Try again in 30 minutes.');
    expect(await page.getByRole('button', { name: 'Open' }).isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath('share-password-paused-375'), fullPage: true });
    assertClean();
  });

  it('an unknown link is a 404 page and an expired one a 410 page, each saying so', async () => {
    const { page, expectHttpError, assertClean } = await watchedPage(browser);
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
    expectHttpError(`/s/${unknown}`, 404);
    expect((await page.goto(`${t.url}/s/${unknown}`))!.status()).toBe(404);
    await expect.poll(() => heading(page)).toBe('Share not found');
    expect(await page.locator('main').innerText()).toContain('deleted');

    const id = await share('file', await upload('x', 'old.txt', 'text/plain'), { maxViews: 1 });
    expect((await t.request('GET', `/s/${id}`)).status).toBe(200);
    expectHttpError(`/s/${id}`, 410);
    expect((await page.goto(`${t.url}/s/${id}`))!.status()).toBe(410);
    await expect.poll(() => heading(page)).toBe('This share is no longer available');
    assertClean();
  });
});
