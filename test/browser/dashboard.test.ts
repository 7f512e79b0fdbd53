import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { overflowsHorizontally, signInChoosingPassword, signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';
import { cuttingRelay } from '../support/tus-client.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const MiB = 1024 * 1024;
const DOC_SCREENSHOT = new URL('../../docs/dashboard.png', import.meta.url).pathname;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A folder of 30 files in 3 levels: top (10 files), top/middle (10), top/middle/bottom (10). */
function folderOnDisk(): { root: string; files: Map<string, Buffer> } {
  const base = tempDir('dash-folder');
  const files = new Map<string, Buffer>();
  const levels = ['trip', 'trip/day-1', 'trip/day-1/evening'];
  for (const level of levels) {
    mkdirSync(join(base, level), { recursive: true });
    for (let i = 0; i < 10; i += 1) {
      const bytes = randomBytes(1000 + i);
      writeFileSync(join(base, level, `photo-${i}.bin`), bytes);
      files.set(`${level}/photo-${i}.bin`, bytes);
    }
  }
  return { root: join(base, 'trip'), files };
}

interface TreeFolder {
  name: string;
  files: { name: string; size: string }[];
  folders: TreeFolder[];
}

function paths(folder: TreeFolder, prefix: string): string[] {
  const here = `${prefix}${folder.name}`;
  return [...folder.files.map((f) => `${here}/${f.name}`), ...folder.folders.flatMap((f) => paths(f, `${here}/`))];
}

describe.skipIf(!chromiumFound)('the dashboard in Chromium', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      makeHttp({ limits: { storage: 200 * MiB, files: 20_000, folders: 200 }, maxUploadBytes: 32 * MiB }),
      launchChromium(),
    ]);
    await t.user('alice');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('user journey: sign in, create a folder, upload a 20 MiB file whose connection is cut midway and resumes, upload a 3-level folder, share with a password and an expiry, download elsewhere with the same SHA-256', async () => {
    // The browser reaches the service through a relay that cuts its connection once, 10 MiB into what it sends:
    // in the middle of the big file's bytes, as a dropped network would.
    const relay = await cuttingRelay(t.url, 10 * MiB);
    const base = relay.url;
    const { page, assertClean, expectHttpError } = await watchedPage(browser, { viewport: { width: 1280, height: 900 } });
    // A retry can meet the cut request's append still finishing on the server: 409, and the client asks again.
    expectHttpError(/^\/api\/upload\/tus\/[A-Za-z0-9_-]+$/, 409);
    // Where each resumption started: the Upload-Offset the server answered the client's HEAD with.
    const resumedAt: number[] = [];
    page.on('response', (res) => {
      if (res.request().method() === 'HEAD' && res.url().includes('/api/upload/tus/')) {
        resumedAt.push(Number(res.headers()['upload-offset']));
      }
    });
    await signInThroughPage(page, base, 'alice', 'alice-password');
    await page.screenshot({ path: screenshotPath('dashboard-empty-1280') });

    await page.getByLabel('New folder name').fill('Holidays');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('link', { name: 'Holidays', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Holidays');

    const big = randomBytes(20 * MiB);
    const bigPath = join(tempDir('dash-big'), 'big.bin');
    writeFileSync(bigPath, big);
    await page.getByLabel('Upload files').setInputFiles(bigPath);
    await expect.poll(() => page.locator('.upload-done').count(), { timeout: 60_000 }).toBe(1);
    expect(relay.cuts).toBe(1);
    // It went on from the bytes the server had, not from the start.
    expect(resumedAt.some((offset) => offset > 0 && offset < 20 * MiB)).toBe(true);

    const { root, files } = folderOnDisk();
    await page.getByLabel('Upload a folder').setInputFiles(root);
    await expect.poll(() => page.locator('.upload-done').count(), { timeout: 30_000 }).toBe(31);
    await expect.poll(() => page.getByRole('link', { name: 'trip', exact: true }).isVisible()).toBe(true);

    // The structure is recreated exactly, checked through the API.
    const token = await t.userToken('alice');
    const holidays = (await t.request('GET', '/api/folder', { token })).body.folders[0];
    const tree = (await t.request('GET', `/api/folder/${holidays.id}`, { token })).body as TreeFolder;
    expect(paths(tree.folders[0] as TreeFolder, '').sort()).toEqual([...files.keys()].sort());
    expect(tree.files.map((f) => [f.name, f.size])).toEqual([['big.bin', String(20 * MiB)]]);

    await page.getByRole('button', { name: 'Clear finished' }).click();
    await page.getByRole('button', { name: 'Actions for big.bin' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByLabel('Password (optional)').fill('open sesame');
    await page.getByLabel('Expires').selectOption('date');
    await page.getByLabel('Expiry date and time').fill('2027-01-15T12:00');
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = page.getByLabel('Share link');
    await expect.poll(() => link.isVisible()).toBe(true);
    const url = await link.inputValue();
    expect(url).toMatch(new RegExp(`^${base}/s/[A-Za-z0-9_-]{22}$`));
    await page.screenshot({ path: screenshotPath('dashboard-files-1280') });
    // The README's picture: refreshed on demand, so ordinary runs leave the work tree alone.
    if (process.env['COFFER_DOC_SCREENSHOTS'] === '1') {
      await page.evaluate('scrollTo(0, 0)');
      await page.screenshot({ path: DOC_SCREENSHOT });
    }
    expect(await overflowsHorizontally(page)).toBe(false);

    const visitor = await watchedPage(browser);
    // The share page's first read meets the password prompt: a 401 by design.
    visitor.expectHttpError(new URL(url).pathname.replace('/s/', '/api/share/'), 401);
    await visitor.page.goto(url);
    await visitor.page.getByLabel('Password').fill('open sesame');
    await visitor.page.getByRole('button', { name: 'Open' }).click();
    const [download] = await Promise.all([
      visitor.page.waitForEvent('download', { timeout: 30_000 }),
      visitor.page.getByRole('button', { name: 'Download' }).or(visitor.page.getByRole('link', { name: 'Download' })).click(),
    ]);
    expect(sha256(readFileSync(await download.path()))).toBe(sha256(big));
    visitor.assertClean();

    // The Shares page lists it with its limits and state.
    await page.getByRole('link', { name: 'Shares' }).click();
    await expect.poll(() => page.locator('.share-row').first().textContent()).toContain('big.bin');
    const row = (await page.locator('.share-row').first().textContent()) ?? '';
    expect(row).toContain('password');
    expect(row).toContain('active');
    await relay.close();
    assertClean();
  });

  it('admin journey: create a user, lower their storage limit, their upload is refused naming the limit, then delete them', async () => {
    await t.user('root', 'admin');
    const admin = await watchedPage(browser, { viewport: { width: 1280, height: 900 } });
    await signInThroughPage(admin.page, t.url, 'root', 'root-password');
    await admin.page.getByRole('link', { name: 'Admin' }).click();
    await admin.page.getByLabel('Username').fill('carol');
    await admin.page.getByLabel('Password', { exact: true }).fill('carol-password');
    await admin.page.getByRole('button', { name: 'Create user' }).click();
    const card = admin.page.getByRole('listitem', { name: 'carol' });
    await card.waitFor();
    const storage = card.getByRole('form', { name: 'Storage maximum of carol' });
    await storage.getByLabel('Storage maximum').fill('1 kB');
    await storage.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => card.locator('.usage-row').first().textContent()).toContain('0 bytes of 1 kB');
    await admin.page.screenshot({ path: screenshotPath('dashboard-admin-1280') });
    expect(await overflowsHorizontally(admin.page)).toBe(false);

    const user = await watchedPage(browser);
    await signInChoosingPassword(user.page, t.url, 'carol', 'carol-password', 'carol-own-password');
    const path = join(tempDir('dash-quota'), 'report.pdf');
    writeFileSync(path, randomBytes(5000));
    await user.page.getByLabel('Upload files').setInputFiles(path);
    const refusal = await user.page.getByRole('alert').textContent();
    expect(refusal).toContain('storage limit');
    expect(refusal).toContain('leaves 1 kB');
    const carol = (await t.request('GET', '/api/admin/users', { token: await t.adminToken() })).body.find(
      (u: { username: string }) => u.username === 'carol',
    );
    expect(carol.files.current).toBe(0);

    // When the page's check passes (here: usage as it was before the limit fell), the server's own refusal is shown,
    // with the limit named and the room it leaves.
    const roomy = { ...carol, storage: { current: '0', max: String(100 * MiB) } };
    await user.page.route('**/api/usage/stats', (route) => route.fulfill({ json: roomy }), { times: 1 });
    user.expectHttpError('/api/upload/tus', 403);
    await user.page.getByLabel('Upload files').setInputFiles(path);
    await expect.poll(() => user.page.locator('.upload-failed').textContent()).toContain('storage limit');
    expect(await user.page.locator('.upload-failed').textContent()).toMatch(/Room left: 1(,000 bytes| kB)/);
    expect((await t.request('GET', '/api/admin/users', { token: await t.adminToken() })).body.find(
      (u: { username: string }) => u.username === 'carol',
    ).files.current).toBe(0);
    user.assertClean();

    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => card.count()).toBe(0);
    admin.assertClean();
  });

  it('a folder of 10,000 files is usable within 2 s: listed, scrolled to the end, sorted', async () => {
    const { actor } = await t.core.authenticate
      .execute({ token: await t.userToken('alice') })
      .then((a) => ({ actor: a }));
    const folder = await t.core.createFolder.execute({ actor, name: 'Archive', parentId: null });
    const names = Array.from({ length: 10_000 }, (_, i) => `scan-${String(i).padStart(5, '0')}.txt`);
    for (let start = 0; start < names.length; start += 50) {
      await Promise.all(
        names.slice(start, start + 50).map((filename) =>
          t.core.uploadFile.execute({
            actor,
            folderId: folder.id,
            name: null,
            filename,
            mime: 'text/plain',
            content: (async function* () {
              yield Buffer.from('x');
            })(),
          }),
        ),
      );
    }

    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 1280, height: 900 } });
    await signInThroughPage(page, t.url, 'alice', 'alice-password');
    const started = Date.now();
    await page.goto(`${t.url}/files/${folder.id}`);
    await page.getByRole('link', { name: 'scan-00000.txt' }).waitFor();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'items' }).textContent()).toBe('10,000 items');
    const grid = page.getByRole('grid', { name: 'Archive' });
    await grid.evaluate((box) => box.scrollTo(0, box.scrollHeight));
    await page.getByRole('link', { name: 'scan-09999.txt' }).waitFor();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(2000);
    // Only the rows in view are in the page, not ten thousand.
    expect(await page.locator('.entry').count()).toBeLessThan(100);

    await page.getByLabel('Sort').selectOption('name-desc');
    await grid.evaluate((box) => box.scrollTo(0, 0));
    await page.getByRole('link', { name: 'scan-09999.txt' }).waitFor();
    assertClean();
  });

  it('fits a 375 px phone screen and a 1280 px desktop without sideways scrolling', async () => {
    // A picture for the grid's thumbnails: a screenshot is a real PNG.
    const painter = (await watchedPage(browser, { viewport: { width: 200, height: 150 } })).page;
    await painter.setContent('<body style="margin:0;background:linear-gradient(90deg,#c33,#36c)"></body>');
    const picture = await painter.screenshot();
    await t.upload(await t.userToken('alice'), picture, { filename: 'picture.png', type: 'image/png' });
    for (const width of [375, 1280]) {
      const { page, assertClean } = await watchedPage(browser, { viewport: { width, height: 800 } });
      await signInThroughPage(page, t.url, 'alice', 'alice-password');
      for (const [name, path] of [
        ['files', '/'],
        ['usage', '/usage'],
        ['shares', '/shares'],
        ['tokens', '/tokens'],
        ['pastes', '/pastes'],
        ['account', '/account'],
      ]) {
        await page.goto(`${t.url}${path}`);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: screenshotPath(`dashboard-${name}-${width}`), fullPage: true });
        expect(await overflowsHorizontally(page), `${name} at ${width}px`).toBe(false);
      }
      await page.goto(`${t.url}/`);
      await page.getByRole('button', { name: 'Grid view' }).click();
      await page.waitForLoadState('networkidle');
      const thumb = page.locator('img.thumb').first();
      await expect.poll(() => thumb.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(0);
      await page.screenshot({ path: screenshotPath(`dashboard-grid-${width}`), fullPage: true });
      expect(await overflowsHorizontally(page), `grid at ${width}px`).toBe(false);
      assertClean();
    }
  });
});
