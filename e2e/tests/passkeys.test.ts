import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;
// WebAuthn takes a domain as the RP ID, not an IP address: the console is opened as localhost.
let consoleUrl: string;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
  // Off by default, as in new-api.
  expect((await root.put('/api/option/', { key: 'passkey.enabled', value: 'true' })).success).toBe(true);
  consoleUrl = server.url.replace('127.0.0.1', 'localhost');
});

afterAll(() => closeFileServer(server));

/** Chromium's virtual authenticator (DevTools WebAuthn domain): a platform passkey store that verifies the user. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

/** Logs out by dropping the session cookie (the authenticator lives in this page, so the page stays). */
async function logOut(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.removeItem('user'));
  await page.goto('/login');
}

describe.each<Language>(['en'])('passkeys (%s)', (language: Language) => {
  const settings = localeText('settings', language);
  const auth = localeText('auth', language);

  it('enrols a passkey, deletes it after re-verifying, enrols it again, logs in with it password-less and as the second factor, and deletes it', async () => {
    const name = `pk${language}${Date.now() % 100000}`;
    expect((await root.post('/api/user/', { username: name, password: 'password123', display_name: name })).success).toBe(true);
    const { page, context, consoleErrors } = await openConsole(browser, consoleUrl, { language });
    await addVirtualAuthenticator(page);
    await loginAs(page, name, 'password123', '/setting');

    const card = page.getByTestId('personal-passkeys');
    await card.getByText(settings('passkeys.none')).waitFor();
    await page.getByTestId('passkey-add').click();
    await page.getByTestId('passkey-name-input').fill('Virtual key');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => card.getByTestId('passkey-name').allInnerTexts()).toEqual(['Virtual key']);
    await card.getByText(settings('passkeys.neverUsed'), { exact: false }).waitFor();
    await saveScreenshot(page, `passkeys-settings-${language}`);

    // Removing it takes a fresh check with the passkey (this session began with the password alone).
    await card.getByTestId('passkey-delete').click();
    await page.getByTestId('passkey-delete-confirm').click();
    await page.getByTestId('verify-with-passkey').click();
    await card.getByText(settings('passkeys.none')).waitFor();
    // With no passkey left there is no second factor to check: it is added again at once.
    await page.getByTestId('passkey-add').click();
    await page.getByTestId('passkey-name-input').fill('Virtual key');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => card.getByTestId('passkey-name').allInnerTexts()).toEqual(['Virtual key']);

    // Password-less: the login page's passkey button alone.
    await logOut(page);
    await page.getByTestId('passkey-login').getByText(auth('passkey.signIn')).waitFor();
    await page.getByTestId('passkey-login').click();
    await page.waitForURL(/\/token$/);

    // As the second factor: the password, then the passkey instead of a code.
    await logOut(page);
    await page.getByLabel(auth('login.username')).fill(name);
    await page.getByLabel(auth('login.password')).fill('password123');
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('two-factor-step').getByText(auth('passkey.secondFactorHint')).waitFor();
    await saveScreenshot(page, `passkeys-second-factor-${language}`);
    await page.getByTestId('two-factor-passkey').click();
    await page.waitForURL(/\/token$/);

    // Right after a login with the passkey the session counts as verified: removing it asks nothing more.
    await page.goto('/setting');
    await card.getByTestId('passkey-delete').click();
    await page.getByTestId('passkey-delete-confirm').click();
    await card.getByText(settings('passkeys.none')).waitFor();
    expect(await page.getByTestId('verify-with-passkey').count()).toBe(0);
    expect(consoleErrors.filter((error) => !error.includes('Failed to load resource'))).toEqual([]);
    await context.close();
  });
});
