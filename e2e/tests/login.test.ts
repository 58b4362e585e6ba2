import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionMessages } from '../../packages/server/src/entry/api/session/session.messages.ts';
import { openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openFileServer());
});

afterAll(() => closeFileServer(server));

/** The console's own strings for the login page, in the language a run reads them in. */
function loginTexts(language: Language) {
  const auth = localeText('auth', language);
  return {
    title: auth('login.title'),
    username: auth('login.username'),
    password: auth('login.password'),
    submit: auth('login.submit'),
    defaultPassword: auth('defaultPassword.title'),
    expired: auth('login.expired'),
    required: auth('login.required'),
  };
}

describe.each<Language>(['zh'])('login (%s)', (language) => {
  const text = loginTexts(language);

  it.each(['light', 'dark'] as const)('logs root in with the password and, on a database not yet set up, opens the first-run setup (%s)', async (theme) => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, theme });
    await page.goto('/login');
    await page.getByRole('heading', { name: text.title }).waitFor();
    await saveScreenshot(page, `login-${language}-${theme}`);
    await page.getByLabel(text.username).fill('root');
    await page.getByLabel(text.password, { exact: true }).fill('123456');
    await page.getByTestId('auth-card').getByRole('button', { name: text.submit, exact: true }).click();
    // The setup replaces the default password, so it comes instead of the default-password warning.
    await page.waitForURL('**/setup');
    await page.getByTestId('setup-page').waitFor();
    expect(await page.locator('.ant-modal-confirm-title', { hasText: text.defaultPassword }).count()).toBe(0);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string; role: number } | null);
    expect(stored).toMatchObject({ username: 'root', role: 100 });
    await page.getByTestId('side-menu').waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('refuses empty fields and a wrong password with the server message', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.goto('/login');
    await page.getByTestId('auth-card').getByRole('button', { name: text.submit, exact: true }).click();
    await page.getByText(text.required).waitFor();
    await page.getByLabel(text.username).fill('root');
    await page.getByLabel(text.password, { exact: true }).fill('wrong-password');
    await page.getByTestId('auth-card').getByRole('button', { name: text.submit, exact: true }).click();
    // The server's own refusal, in the console's language (the console sends Accept-Language).
    await page.locator('.ant-message-error', { hasText: sessionMessages.wrongCredentials[language] }).waitFor();
    expect(page.url()).toContain('/login');
    await context.close();
  });

  it('says the login expired when sent back with expired=true', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.goto('/login?expired=true');
    await page.getByTestId('expired-alert').getByText(text.expired).waitFor();
    await context.close();
  });

  it('sends a user whose session is gone to /login?expired=true', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    // A user remembered by the browser without a session cookie: the first call answers 401.
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('user', JSON.stringify({ id: 1, username: 'root', role: 100 })));
    await page.goto('/setting');
    await page.waitForURL('**/login?expired=true');
    await page.getByTestId('expired-alert').getByText(text.expired).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });

  it('logs out from the avatar menu', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.goto('/login');
    await page.getByLabel(text.username).fill('root');
    await page.getByLabel(text.password, { exact: true }).fill('123456');
    await page.getByTestId('auth-card').getByRole('button', { name: text.submit, exact: true }).click();
    await page.waitForURL('**/setup');
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: language === 'zh' ? '退出' : 'Log out' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });
});
