import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { totpCode } from '../support/totp-code.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
});

afterAll(() => closeFileServer(server));

describe.each<Language>(['zh'])('two-factor authentication (%s)', (language: Language) => {
  const settings = localeText('settings', language);
  const auth = localeText('auth', language);

  async function passwordStep(page: Page, name: string): Promise<void> {
    await page.goto('/login');
    await page.getByLabel(auth('login.username')).fill(name);
    await page.getByLabel(auth('login.password')).fill('password123');
    // antd spaces out two-character Chinese button labels, so the button is found by its role in the form.
    await page.locator('form button[type=submit]').click();
    await page.getByTestId('two-factor-step').waitFor();
  }

  async function codeStep(page: Page, code: string): Promise<void> {
    await page.getByTestId('two-factor-code').fill(code);
    await page.getByTestId('two-factor-submit').click();
  }

  it('enrols with the QR code, logs in with a TOTP code and a backup code, and refuses wrong and used codes', async () => {
    const name = `tf${language}${Date.now() % 100000}`;
    expect((await root.post('/api/user/', { username: name, password: 'password123', display_name: name })).success).toBe(true);

    const first = await openConsole(browser, server.url, { language });
    await loginAs(first.page, name, 'password123', '/setting');
    const card = first.page.getByTestId('personal-two-factor');
    await expect.poll(() => first.page.getByTestId('two-factor-state').innerText()).toBe(settings('twoFactor.off'));
    await first.page.getByTestId('two-factor-enable').click();
    await first.page.getByTestId('two-factor-qr').waitFor();
    const secret = (await first.page.getByTestId('two-factor-secret').innerText()).trim();
    const backupCodes = (await first.page.getByTestId('backup-codes').locator('code').allInnerTexts()).map((code) => code.trim());
    expect(backupCodes).toHaveLength(10);
    await first.page.getByTestId('two-factor-setting-code').fill(totpCode(secret, Date.now() / 1000));
    await first.page.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => first.page.getByTestId('two-factor-state').innerText()).toBe(settings('twoFactor.on'));
    await card.getByText(settings('twoFactor.remaining', { count: 10 })).waitFor();
    await first.context.close();

    // Password, then a wrong code (refused), then a backup code: logged in.
    const second = await openConsole(browser, server.url, { language });
    await passwordStep(second.page, name);
    await codeStep(second.page, '000000');
    await second.page.locator('.ant-message-error').waitFor();
    await codeStep(second.page, backupCodes[0] ?? '');
    await second.page.waitForURL(/\/token$/);
    await second.context.close();

    // The same backup code again: refused; the next TOTP step's code (within the one-step window): logged in.
    const third = await openConsole(browser, server.url, { language });
    await passwordStep(third.page, name);
    await codeStep(third.page, backupCodes[0] ?? '');
    await third.page.locator('.ant-message-error').waitFor();
    await codeStep(third.page, totpCode(secret, Date.now() / 1000 + 30));
    await third.page.waitForURL(/\/token$/);
    await third.context.close();
  });
});
