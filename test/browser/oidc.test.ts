import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage } from '../support/browser.js';
import { signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { CALLBACK, ssoConfig } from '../support/sso-apps.js';

if (!chromiumFound) console.log(ENABLE_HINT);

describe.skipIf(!chromiumFound)('single sign-on in the dashboard', () => {
  let provider: TestProvider;
  let t: HttpTest;
  let browser: Browser;

  beforeAll(async () => {
    [provider, browser] = await Promise.all([startTestProvider(), launchChromium()]);
    t = await makeHttp({ config: ssoConfig(provider, { label: 'Test ID' }) });
    await provider.configure([`${t.url}${CALLBACK}`]);
    provider.accounts.set('ada-sub', { preferred_username: 'ada', groups: ['coffer-admins'] });
    provider.accounts.set('bea-sub', { preferred_username: 'bea', groups: [] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await provider?.close();
  });

  /**
   * The provider's own pages load a web font from the internet, which this machine cannot reach: an empty style sheet
   * stands in for it, so the page's console stays clean. Coffer's pages load nothing from elsewhere.
   */
  async function offline(page: Page): Promise<void> {
    await page.route(/^https:\/\/fonts\.googleapis\.com\//, (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
  }

  /** The provider's own sign-in form (oidc-provider's development interactions): any login, any password. */
  async function atProviderForm(page: Page, login: string): Promise<void> {
    await page.locator('input[name="login"]').waitFor();
    await page.screenshot({ path: screenshotPath('oidc-provider-form'), fullPage: true });
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  it('signs in with "Sign in with Test ID", through the provider\'s form, back on the page it started from', async () => {
    const { page, assertClean, problems } = await watchedPage(browser);
    await offline(page);
    page.setDefaultTimeout(5000);
    try {
      await page.goto(`${t.url}/shares`);
      const button = page.getByRole('link', { name: 'Sign in with Test ID' });
      await button.waitFor();
      await page.screenshot({ path: screenshotPath('oidc-sign-in-page'), fullPage: true });
      await button.click();
      await atProviderForm(page, 'ada-sub');
      await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/shares');
      await expect.poll(() => page.locator('.who').textContent()).toContain('ada');
      // A member of the admin group: the Admin section is there, and it shows who comes from SSO.
      await page.goto(`${t.url}/admin`);
      const card = page.getByRole('listitem', { name: 'ada' });
      await card.getByText('SSO', { exact: true }).waitFor();
      await card.getByText('no password').waitFor();
      await page.screenshot({ path: screenshotPath('oidc-admin-list'), fullPage: true });
      await page.goto(`${t.url}/account`);
      const section = page.getByRole('region', { name: 'Single sign-on' });
      await section.getByText('Linked: you can sign in with Test ID.').waitFor();
      await section.getByText('cannot be unlinked').waitFor();
      await page.screenshot({ path: screenshotPath('oidc-account-sso-only'), fullPage: true });
    } catch (err) {
      await page.screenshot({ path: screenshotPath('oidc-failed'), fullPage: true });
      console.log(problems);
      throw err;
    }
    assertClean();
  });

  it('links a password account from Account, unlinks it, and shows why a sign-in came back unfinished', async () => {
    await t.user('carl');
    const { page, assertClean, problems } = await watchedPage(browser);
    await offline(page);
    page.setDefaultTimeout(5000);
    try {
      await signInThroughPage(page, t.url, 'carl', 'carl-password');
      await page.goto(`${t.url}/account`);
      const section = page.getByRole('region', { name: 'Single sign-on' });
      await section.getByRole('link', { name: 'Link Test ID account' }).click();
      await atProviderForm(page, 'bea-sub');
      await section.getByText('Linked: you can sign in with Test ID.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/account');
      await page.screenshot({ path: screenshotPath('oidc-account-linked'), fullPage: true });
      await section.getByRole('button', { name: 'Unlink' }).click();
      await section.getByRole('button', { name: 'Yes, unlink' }).click();
      await section.getByText('Not linked.').waitFor();
      const carl = await t.ports.users.findByUsername('carl');
      expect(carl?.oidc).toBeNull();

      // Signed out, a sign-in the provider refused lands back here with a sentence.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByRole('link', { name: 'Sign in with Test ID' }).waitFor();
      await page.goto(`${t.url}/?ssoError=denied`);
      await page.getByText('The sign-in was cancelled or refused at the single sign-on provider.').waitFor();
      expect(new URL(page.url()).search).toBe('');
      await page.screenshot({ path: screenshotPath('oidc-sign-in-refused'), fullPage: true });
    } catch (err) {
      await page.screenshot({ path: screenshotPath('oidc-link-failed'), fullPage: true });
      console.log(problems);
      throw err;
    }
    assertClean();
  });
});
