import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { totpAt } from '../support/totp.js';

if (!chromiumFound) console.log(ENABLE_HINT);

describe.skipIf(!chromiumFound)('two-factor sign-in in the dashboard', () => {
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp(), launchChromium()]);
    await t.user('alice');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('Account → Security turns TOTP on with the QR code and key; signing in then asks for a code', async () => {
    const { page, assertClean, expectHttpError, problems } = await watchedPage(browser);
    page.setDefaultTimeout(5000);
    try {
    await signInThroughPage(page, t.url, 'alice', 'alice-password');
    await page.goto(`${t.url}/account`);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('path').nth(1).waitFor();
    const secret = (await page.locator('.totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.screenshot({ path: screenshotPath('mfa-setup'), fullPage: true });
    await page.getByLabel('Code from your app').fill(totpAt(secret, t.clock.now()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.locator('.recovery-codes');
    await codes.waitFor();
    expect((await codes.textContent())?.trim().split('\n')).toHaveLength(10);
    await page.screenshot({ path: screenshotPath('mfa-recovery-codes'), fullPage: true });
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Recovery codes left: 10').waitFor();

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    // A wrong code says so, and the form stays.
    expectHttpError('/api/auth/session/mfa', 401);
    await page.getByLabel('Code from your authenticator app, or a recovery code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is wrong.').waitFor();
    await page.screenshot({ path: screenshotPath('mfa-sign-in-code'), fullPage: true });
    t.clock.advance(30_000);
    await page.getByLabel('Code from your authenticator app, or a recovery code').fill(totpAt(secret, t.clock.now()));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
    } catch (err) {
      await page.screenshot({ path: screenshotPath('mfa-failed'), fullPage: true });
      console.log(problems);
      throw err;
    }
    assertClean();
  });

  it('an admin turns a user\'s two-factor sign-in off from the Admin page', async () => {
    const bob = await t.user('bob');
    const setup = await t.request('POST', '/api/auth/mfa/totp', { token: bob.token });
    t.clock.advance(30_000);
    const code = totpAt(setup.body.secret, t.clock.now());
    expect((await t.request('POST', '/api/auth/mfa/totp/confirm', { token: bob.token, json: { code } })).status).toBe(200);
    await t.adminToken();
    const { page, assertClean } = await watchedPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'admin-password');
    await page.goto(`${t.url}/admin`);
    const card = page.getByRole('listitem', { name: 'bob' });
    await card.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await card.getByRole('button', { name: 'Yes, turn off two-factor sign-in' }).click();
    await expect.poll(() => card.getByRole('button', { name: 'Turn off two-factor sign-in' }).count()).toBe(0);
    const admin = await t.adminToken();
    expect((await t.request('GET', `/api/admin/users/${bob.userId}`, { token: admin })).body.mfa.totp).toBe(false);
    assertClean();
  });
});
