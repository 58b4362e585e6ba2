import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi } from '../support/api-session.ts';
import { closeFileContexts, workerBrowser, openConsole, saveScreenshot, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { outsideEnv, startFakeOutside } from '../support/fake-outside.ts';
import { localeText } from '../support/locales.ts';
import { routeTurnstile } from '../support/outside-widgets.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { startSmtpCatcher } from '../support/smtp-catcher.ts';

let server: TestServer;
let browser: Browser;
let outside: Awaited<ReturnType<typeof startFakeOutside>>;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let rootAffCode = '';
let root: Awaited<ReturnType<typeof loginApi>>;

beforeAll(async () => {
  [outside, smtp, browser] = await Promise.all([startFakeOutside(), startSmtpCatcher(), workerBrowser()]);
  server = await startServer(outsideEnv(outside.url));
  root = await loginApi(server.url, 'root', '123456');
  await root.setOptions({
    ServerAddress: server.url,
    SMTPServer: '127.0.0.1',
    SMTPPort: String(smtp.port),
    SMTPAccount: 'mailer@gateway.test',
    SMTPFrom: 'mailer@gateway.test',
    SMTPToken: 'smtp-password',
    EmailVerificationEnabled: 'true',
    TurnstileSiteKey: 'site-key',
    TurnstileSecretKey: 'secret-key',
    TurnstileCheckEnabled: 'true',
  });
  rootAffCode = (await root.get<string>('/api/user/aff')).data;
});

afterAll(async () => {
  await closeFileContexts();
  await server?.stop();
  await Promise.all([outside?.close(), smtp?.close()]);
});

describe.each<Language>(['en'])('register, verify and reset (%s)', (language: Language) => {
  const auth = localeText('auth', language);

  it.each(['light', 'dark'] as const)('shows the register page (%s theme)', async (theme) => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, theme });
    await routeTurnstile(context);
    await page.goto('/register');
    await page.getByText('turnstile-pass').waitFor();
    await saveScreenshot(page, `register-${language}-${theme}`);
    await page.goto('/reset');
    await page.getByText('turnstile-pass').waitFor();
    await saveScreenshot(page, `reset-${language}-${theme}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('registers with an e-mailed code behind Turnstile, logs in, then resets the password', async () => {
    const username = `reg${language}${Date.now() % 10000}`;
    const email = `${username}@mail.test`;
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await routeTurnstile(context);
    const card = page.getByTestId('auth-card');

    await page.goto(`/register?aff=${rootAffCode}`);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('aff')), { timeout: 10_000 }).toBe(rootAffCode);
    await card.getByLabel(auth('login.username')).fill(username);
    await card.getByLabel(auth('login.password'), { exact: true }).fill('short');
    await card.getByLabel(auth('register.confirmPassword')).fill('different');
    await card.getByRole('button', { name: auth('register.submit') }).click();
    await card.getByText(auth('register.passwordTooShort')).waitFor();
    await card.getByText(auth('register.passwordMismatch')).waitFor();
    await card.getByLabel(auth('login.password'), { exact: true }).fill('password123');
    await card.getByLabel(auth('register.confirmPassword')).fill('password123');

    // The send-code button needs an e-mail, then a passed Turnstile check.
    await page.getByTestId('send-code').click();
    await page.getByText(auth('register.emailRequired')).first().waitFor();
    await card.getByLabel(auth('register.email')).fill(email);
    await page.getByTestId('send-code').click();
    await page.getByText(auth('turnstile.checking')).waitFor();
    await page.getByText('turnstile-pass').click();
    await page.getByTestId('send-code').click();
    await page.getByText(auth('register.codeSent')).waitFor();
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true);
    const code = /<strong>(\d{6})<\/strong>/.exec(smtp.lastTo(email)?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await card.getByLabel(auth('register.code')).fill(code ?? '');
    await card.getByRole('button', { name: auth('register.submit') }).click();
    await page.getByText(auth('register.success')).waitFor();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: auth('login.title') }).waitFor();

    // Log in (Turnstile again), go to /token.
    await card.getByLabel(auth('login.username')).fill(username);
    await card.getByLabel(auth('login.password'), { exact: true }).fill('password123');
    await page.getByText('turnstile-pass').click();
    await card.getByRole('button', { name: auth('login.submit'), exact: true }).click();
    await page.waitForURL('**/token');
    const [registered] = (await root.get<Array<{ inviter_id: number; email: string }>>(`/api/user/search?keyword=${username}`)).data;
    expect(registered).toMatchObject({ inviter_id: 1, email });

    // Reset: the mailed link shows a new password that works.
    await page.evaluate(() => localStorage.removeItem('user'));
    await page.goto('/reset');
    await page.getByRole('heading', { name: auth('reset.title') }).waitFor();
    await card.getByLabel(auth('register.email')).fill(email);
    await page.getByText('turnstile-pass').click();
    await card.getByRole('button', { name: auth('reset.submit') }).click();
    await page.getByText(auth('reset.sent')).waitFor();
    const link = /href="([^"]+\/user\/reset\?[^"]+)"/.exec(smtp.lastTo(email)?.text ?? '')?.[1]?.replace(/&(amp|#38);/g, '&');
    expect(link).toBeTruthy();
    await page.goto(new URL(link ?? '').pathname + new URL(link ?? '').search);
    await card.getByRole('button', { name: auth('resetConfirm.submit') }).click();
    const newPassword = await page.getByTestId('new-password').inputValue();
    expect(newPassword.length).toBeGreaterThanOrEqual(8);
    await saveScreenshotsInBothThemes(page, `reset-confirm-${language}`);
    await loginApi(server.url, username, newPassword, 'pass');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
