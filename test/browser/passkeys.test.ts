import type { Browser, CDPSession, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFound, ENABLE_HINT, launchChromium, screenshotPath, watchedPage, type WatchedPage } from '../support/browser.js';
import { overflowsHorizontally, signInThroughPage } from '../support/dashboard.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { totpAt } from '../support/totp.js';

if (!chromiumFound) console.log(ENABLE_HINT);

const PHONE = { width: 375, height: 740 };

/**
 * Chromium's DevTools virtual authenticator (CDP "WebAuthn" domain): a platform authenticator that holds discoverable
 * credentials and verifies the person at once, so every prompt is answered without a person.
 */
async function virtualAuthenticator(page: Page): Promise<{
  cdp: CDPSession;
  credentials: () => Promise<{ isResidentCredential: boolean; rpId?: string }[]>;
  remove: () => Promise<void>;
}> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    cdp,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    remove: async () => void (await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId })),
  };
}

const isFocused = (target: Locator) => target.evaluate((element) => element === element.ownerDocument.activeElement);

/** Presses Tab until the element has the focus: proof that a keyboard reaches it (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Account → Security → Add a passkey, named `name`, answered by the virtual authenticator. */
async function addPasskey(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Name for this passkey').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('listitem', { name }).waitFor();
}

describe.skipIf(!chromiumFound)('passkeys in the dashboard (Chromium virtual authenticator)', () => {
  let t: HttpTest;
  let browser: Browser;
  /** The server's public address: WebAuthn needs a domain (localhost), never an IP address. */
  let base: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([makeHttp({ publicUrl: (port) => `http://localhost:${port}` }), launchChromium()]);
    base = t.url.replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Runs a scenario on a watched page, leaving a screenshot and the problems seen when it fails. */
  async function scenario(name: string, body: (w: WatchedPage) => Promise<void>, options = {}): Promise<void> {
    const w = await watchedPage(browser, options);
    w.page.setDefaultTimeout(5000);
    try {
      await body(w);
    } catch (err) {
      await w.page.screenshot({ path: screenshotPath(`passkeys-${name}-failed`), fullPage: true });
      console.log(w.problems);
      throw err;
    } finally {
      await w.page.context().close();
    }
    w.assertClean();
  }

  it('registers a passkey in Account → Security, then signs in with it alone, back to the page asked for', () =>
    scenario('register-sign-in', async ({ page }) => {
      await t.user('alice');
      const authenticator = await virtualAuthenticator(page);
      await signInThroughPage(page, base, 'alice', 'alice-password');
      await page.goto(`${base}/account`);
      await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
      await page.getByText('No passkeys yet.').waitFor();
      await addPasskey(page, 'Work laptop');
      await page.getByText('Passkey “Work laptop” added.').waitFor();
      const item = page.getByRole('listitem', { name: 'Work laptop' });
      expect(await item.textContent()).toMatch(/added .+, never used yet/);
      const held = await authenticator.credentials();
      expect(held).toHaveLength(1);
      expect(held[0]?.isResidentCredential).toBe(true);
      expect(held[0]?.rpId).toBe('localhost');
      await page.screenshot({ path: screenshotPath('passkeys-security'), fullPage: true });

      // The same authenticator again: the server's options exclude it, the browser refuses, the page says why.
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByLabel('Name for this passkey').fill('Again');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('already holds a passkey for your account').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await authenticator.credentials()).toHaveLength(1);

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.goto(`${base}/usage`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/usage');
      await page.getByRole('link', { name: 'Account' }).click();
      expect(await page.getByRole('listitem', { name: 'Work laptop' }).textContent()).toMatch(/last used /);
    }));

  it('after a password, a passkey is the second step, beside the code field when TOTP is on too', () =>
    scenario('second-step', async ({ page }) => {
      const bob = await t.user('bob');
      // TOTP first (turning a factor on ends the user's other sessions, this browser's included), then a passkey.
      const setup = await t.request('POST', '/api/auth/mfa/totp', { token: bob.token });
      t.clock.advance(30_000);
      const confirm = { code: totpAt(setup.body.secret, t.clock.now()) };
      expect((await t.request('POST', '/api/auth/mfa/totp/confirm', { token: bob.token, json: confirm })).status).toBe(200);
      await virtualAuthenticator(page);
      await page.goto(`${base}/`);
      await page.getByLabel('Username').fill('bob');
      await page.getByLabel('Password').fill('bob-password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      // No passkey yet: the second step asks for a code only.
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      expect(await page.getByRole('button', { name: 'Use a passkey' }).count()).toBe(0);
      t.clock.advance(30_000);
      await page.getByLabel('Code from your authenticator app, or a recovery code').fill(totpAt(setup.body.secret, t.clock.now()));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      await page.goto(`${base}/account`);
      await addPasskey(page, 'Phone');

      await page.context().clearCookies();
      await page.goto(`${base}/`);
      await page.getByLabel('Username').fill('bob');
      await page.getByLabel('Password').fill('bob-password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      await page.getByLabel('Code from your authenticator app, or a recovery code').waitFor();
      await page.screenshot({ path: screenshotPath('passkeys-second-step'), fullPage: true });
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
    }));

  it('renames and removes a passkey with the keyboard alone; a removed passkey no longer signs in', () =>
    scenario('keyboard', async ({ page, expectHttpError }) => {
      await t.user('carol');
      const authenticator = await virtualAuthenticator(page);
      await signInThroughPage(page, base, 'carol', 'carol-password');
      await page.goto(`${base}/account`);

      const add = page.getByRole('button', { name: 'Add a passkey' });
      await tabTo(page, add);
      await page.keyboard.press('Enter');
      expect(await isFocused(page.getByLabel('Name for this passkey'))).toBe(true);
      await page.keyboard.type('Old name');
      await page.keyboard.press('Enter');
      await page.getByRole('listitem', { name: 'Old name' }).waitFor();
      await expect.poll(() => isFocused(add)).toBe(true);

      const rename = page.getByRole('listitem', { name: 'Old name' }).getByRole('button', { name: 'Rename' });
      await tabTo(page, rename);
      await page.keyboard.press('Enter');
      // Escape gives up, and the focus is back on Rename.
      await page.keyboard.press('Escape');
      await expect.poll(() => isFocused(rename)).toBe(true);
      await page.keyboard.press('Enter');
      const field = page.getByLabel('New name for Old name');
      expect(await isFocused(field)).toBe(true);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Security key');
      await page.keyboard.press('Enter');
      const renamed = page.getByRole('listitem', { name: 'Security key' });
      await renamed.waitFor();
      await expect.poll(() => isFocused(renamed.getByRole('button', { name: 'Rename' }))).toBe(true);
      await page.screenshot({ path: screenshotPath('passkeys-renamed'), fullPage: true });

      await page.keyboard.press('Tab');
      expect(await isFocused(renamed.getByRole('button', { name: 'Remove' }))).toBe(true);
      await page.keyboard.press('Enter');
      // Armed: the focus is on Cancel, the safe answer; Yes is one step back.
      await expect.poll(() => isFocused(renamed.getByRole('button', { name: 'Cancel' }))).toBe(true);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await page.getByText('No passkeys yet.').waitFor();
      await expect.poll(() => isFocused(page.getByRole('heading', { name: 'Passkeys' }))).toBe(true);
      expect(await page.evaluate("fetch('/api/auth/passkeys').then((r) => r.json())")).toEqual([]);
      // The authenticator still holds it; the server no longer takes it.
      expect(await authenticator.credentials()).toHaveLength(1);

      await tabTo(page, page.getByRole('button', { name: 'Sign out', exact: true }));
      await page.keyboard.press('Enter');
      const withPasskey = page.getByRole('button', { name: 'Sign in with a passkey' });
      await tabTo(page, withPasskey);
      expectHttpError('/api/auth/session/passkey', 401);
      await page.keyboard.press('Enter');
      await page.getByText('This passkey was not accepted').waitFor();
      expect(await page.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
      await page.screenshot({ path: screenshotPath('passkeys-sign-in-refused'), fullPage: true });
    }));

  it('an admin turns off the passkeys of a user who lost them, from the Admin page; the password alone signs in again', () =>
    scenario('admin-reset', async ({ page }) => {
      await t.user('hank');
      await t.adminToken();
      await virtualAuthenticator(page);
      await signInThroughPage(page, base, 'hank', 'hank-password');
      await page.goto(`${base}/account`);
      await addPasskey(page, 'Lost phone');
      const login = () => t.request('POST', '/api/auth/login', { json: { username: 'hank', password: 'hank-password' } });
      expect((await login()).body).toMatchObject({ mfaRequired: true, methods: ['passkey'] });

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await signInThroughPage(page, base, 'admin', 'admin-password');
      await page.goto(`${base}/admin`);
      const card = page.getByRole('listitem', { name: 'hank' });
      await card.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
      await card.getByText('Their passkey will no longer sign them in; their password alone will.').waitFor();
      await card.getByRole('button', { name: 'Yes, turn off two-factor sign-in' }).click();
      await expect.poll(() => card.getByRole('button', { name: 'Turn off two-factor sign-in' }).count()).toBe(0);
      expect((await login()).body.token).toEqual(expect.any(String));
    }));

  it('refuses a passkey made for another origin (rp.id other.localhost) with the documented error', () =>
    scenario('other-origin', async ({ page }) => {
      const dave = await t.user('dave');
      await virtualAuthenticator(page);
      /** A credential made in a page at `origin` for `rpId`, answering fresh registration options of Dave's. */
      const made = async (origin: string, rpId: string) => {
        const options = await t.request('POST', '/api/auth/passkeys/options', { token: dave.token });
        expect(options.status).toBe(200);
        expect(options.body.rp.id).toBe('localhost');
        await page.goto(`${origin}/`);
        const arg = JSON.stringify({ options: options.body, rpId });
        return page.evaluate(`(${CREATE_FOREIGN_CREDENTIAL})(${arg})`);
      };
      const register = (name: string, response: unknown) =>
        t.request('POST', '/api/auth/passkeys', { token: dave.token, json: { name, response } });

      // A page of another origin (Chromium maps *.localhost to loopback) makes a credential for its own RP id.
      const refused = await register('Foreign', await made(base.replace('localhost', 'other.localhost'), 'other.localhost'));
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('bad_request');
      expect(refused.body.field).toBe('response');
      expect(refused.body.message).toMatch(/origin|RP ID/i);
      expect((await t.request('GET', '/api/auth/passkeys', { token: dave.token })).body).toEqual([]);
      // The control: the same steps on the server's own origin are accepted, so the origin alone made the difference.
      expect((await register('Home', await made(base, 'localhost'))).status).toBe(201);
    }));

  it('hides every passkey button when the browser has no WebAuthn, and says why on the Security page', () =>
    scenario('no-webauthn', async ({ page }) => {
      await page.context().addInitScript('delete window.PublicKeyCredential');
      await t.user('erin');
      await page.goto(`${base}/`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
      await signInThroughPage(page, base, 'erin', 'erin-password');
      await page.goto(`${base}/account`);
      await page.getByText('This browser cannot make or use passkeys here').waitFor();
      expect(await page.getByRole('button', { name: 'Add a passkey' }).count()).toBe(0);
    }));

  it('hides them at an IP address too, where no passkey can work, and says to open Coffer at its name', () =>
    scenario('ip-address', async ({ page }) => {
      await t.user('gina');
      await page.goto(`${t.url}/`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await page.evaluate('typeof PublicKeyCredential')).toBe('function');
      expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
      await signInThroughPage(page, t.url, 'gina', 'gina-password');
      await page.goto(`${t.url}/account`);
      await page.getByText('Passkeys do not work at an IP address').waitFor();
      expect(await page.getByRole('button', { name: 'Add a passkey' }).count()).toBe(0);
    }));

  it('fits a 375 px screen: the sign-in page, the Security page with passkeys, the second step', () =>
    scenario(
      'phone',
      async ({ page }) => {
        await t.user('frank');
        const phone = await virtualAuthenticator(page);
        await page.goto(`${base}/`);
        await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
        await page.screenshot({ path: screenshotPath('passkeys-sign-in-375'), fullPage: true });
        expect(await overflowsHorizontally(page)).toBe(false);

        await signInThroughPage(page, base, 'frank', 'frank-password');
        await page.goto(`${base}/account`);
        await addPasskey(page, 'A rather long name for a passkey kept on a phone');
        // A second authenticator in place of the first, so one more passkey can be added (the first is excluded).
        await phone.remove();
        await virtualAuthenticator(page);
        await addPasskey(page, 'Yubikey');
        await page.getByRole('listitem', { name: 'Yubikey' }).getByRole('button', { name: 'Remove' }).click();
        await page.getByRole('listitem', { name: 'A rather long name for a passkey kept on a phone' }).getByRole('button', { name: 'Rename' }).click();
        await page.screenshot({ path: screenshotPath('passkeys-security-375'), fullPage: true });
        expect(await overflowsHorizontally(page)).toBe(false);

        await page.context().clearCookies();
        await page.goto(`${base}/`);
        await page.getByLabel('Username').fill('frank');
        await page.getByLabel('Password').fill('frank-password');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
        await page.screenshot({ path: screenshotPath('passkeys-second-step-375'), fullPage: true });
        expect(await overflowsHorizontally(page)).toBe(false);
      },
      { viewport: PHONE },
    ));
});

/**
 * Runs in the page: navigator.credentials.create with the server's registration options but the RP id of the page's
 * own origin, and the result as the JSON @simplewebauthn/browser would send.
 */
const CREATE_FOREIGN_CREDENTIAL = `async ({ options, rpId }) => {
  const decode = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const encode = (buffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const credential = await navigator.credentials.create({
    publicKey: {
      ...options,
      rp: { ...options.rp, id: rpId },
      challenge: decode(options.challenge),
      user: { ...options.user, id: decode(options.user.id) },
      excludeCredentials: [],
    },
  });
  return {
    id: credential.id,
    rawId: encode(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: encode(credential.response.clientDataJSON),
      attestationObject: encode(credential.response.attestationObject),
      transports: credential.response.getTransports(),
    },
    clientExtensionResults: {},
  };
}`;
