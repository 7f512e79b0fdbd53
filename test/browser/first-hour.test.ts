import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { overflowsHorizontally } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const banner = (page: Page) => page.getByRole('complementary', { name: 'Data is not kept' });

describe.skipIf(!chromiumFound)('the first hour in Chromium: the memory banner and the first password', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a user whose password an admin set chooses their own before anything else; every page says nothing is kept', async () => {
    const admin = await t.adminToken();
    const created = await t.request('POST', '/api/admin/users', {
      token: admin,
      json: { username: 'newcomer', password: 'set-by-the-admin' },
    });
    expect(created.status).toBe(201);

    const { page, assertClean, expectHttpError } = await watchedPage(browser, { viewport: { width: 375, height: 800 } });
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Sign in to Coffer' }).waitFor();
    expect(await banner(page).textContent()).toContain('every account, file, link and token is lost when it stops');
    expect(await banner(page).textContent()).toContain('MONGODB_URI');

    await page.getByLabel('Username').fill('newcomer');
    await page.getByLabel('Password').fill('set-by-the-admin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // Nothing else of the dashboard until then: no sections to go to.
    expect(await page.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
    expect(await banner(page).isVisible()).toBe(true);
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.screenshot({ path: screenshotPath('first-password-375') });

    // A reload (or any dashboard address) still asks first.
    await page.goto(`${t.url}/shares`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();

    await page.getByLabel('Password you signed in with').fill('set-by-the-admin');
    await page.getByLabel('New password (8 to 256 characters)').fill('my-own-password');
    await page.getByLabel('New password again').fill('my-own-passw0rd');
    await page.getByRole('button', { name: 'Save my password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The two new passwords differ. Type the same one twice.');

    // The same password again would keep the generated one: refused, said as a sentence.
    expectHttpError('/api/auth/password', 400);
    await page.getByLabel('New password (8 to 256 characters)').fill('set-by-the-admin');
    await page.getByLabel('New password again').fill('set-by-the-admin');
    await page.getByRole('button', { name: 'Save my password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Choose a new password that differs from the current one.');
    await page.getByLabel('New password (8 to 256 characters)').fill('my-own-password');

    // A wrong current password: the server's 403 for the change is expected here, said as a sentence.
    expectHttpError('/api/auth/password', 403);
    await page.getByLabel('Password you signed in with').fill('not-the-password');
    await page.getByLabel('New password again').fill('my-own-password');
    await page.getByRole('button', { name: 'Save my password' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Your current password is wrong.');

    await page.getByLabel('Password you signed in with').fill('set-by-the-admin');
    await page.getByRole('button', { name: 'Save my password' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/shares');
    expect(await banner(page).isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath('memory-banner-375') });

    const me = await t.request('POST', '/api/auth/login', { json: { username: 'newcomer', password: 'my-own-password' } });
    expect(me.status).toBe(200);
    expect((await t.request('GET', '/api/auth/me', { token: me.body.token })).body.mustChangePassword).toBe(false);
    assertClean();
  });

  it('by keyboard alone at 1280 px: the banner, then the form', async () => {
    const admin = await t.adminToken();
    await t.request('POST', '/api/admin/users', { token: admin, json: { username: 'keyboarder', password: 'set-by-the-admin' } });
    const { page, assertClean } = await watchedPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${t.url}/`);
    await page.getByLabel('Username').focus();
    await page.keyboard.type('keyboarder');
    await page.keyboard.press('Tab');
    await page.keyboard.type('set-by-the-admin');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Password you signed in with').focus();
    await page.keyboard.type('set-by-the-admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keyboard-password');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keyboard-password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath('memory-banner-1280') });
    assertClean();
  });
});
