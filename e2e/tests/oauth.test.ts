import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi } from '../support/api-session.ts';
import { closeFileContexts, workerBrowser, openConsole, saveScreenshot, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { fakeWechatToken, outsideEnv, startFakeOutside } from '../support/fake-outside.ts';
import { localNetworkAllowed } from '../support/local-network.ts';
import { localeText } from '../support/locales.ts';
import { routeTelegram, signTelegramUser } from '../support/outside-widgets.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let browser: Browser;
let outside: Awaited<ReturnType<typeof startFakeOutside>>;
const botToken = '123456:telegram-bot-token';

beforeAll(async () => {
  [outside, browser] = await Promise.all([startFakeOutside(), workerBrowser()]);
  server = await startServer(outsideEnv(outside.url));
  const root = await loginApi(server.url, 'root', '123456');
  await root.setOptions({
    GitHubClientId: 'gh-client',
    GitHubClientSecret: 'gh-secret',
    GitHubOAuthEnabled: 'true',
    LinuxDOClientId: 'ld-client',
    LinuxDOClientSecret: 'ld-secret',
    LinuxDOOAuthEnabled: 'true',
    WeChatServerAddress: `${outside.url}/wechat`,
    WeChatServerToken: fakeWechatToken,
    WeChatAuthEnabled: 'true',
    TelegramBotToken: botToken,
    TelegramBotName: 'switchboard_bot',
    TelegramOAuthEnabled: 'true',
    ...localNetworkAllowed,
  });
});

afterAll(async () => {
  await closeFileContexts();
  await server?.stop();
  await outside?.close();
});

/** Answers the providers' authorize pages locally, so the popup has somewhere to land. */
async function routeAuthorizePages(context: BrowserContext, telegramUser?: Record<string, string | number>): Promise<void> {
  // Telegram login is on too: its widget script must not reach for the internet.
  await routeTelegram(context, telegramUser);
  for (const host of ['https://github.com/**', 'https://connect.linux.do/**']) {
    await context.route(host, (route) => route.fulfill({ contentType: 'text/html', body: '<title>authorize</title>' }));
  }
}

/** Clicks a login/bind button, checks the authorize page the popup opens and returns its state. */
async function authorizeState(page: Page, click: () => Promise<void>, host: RegExp, clientId: string): Promise<string> {
  const popupOpened = page.waitForEvent('popup');
  await click();
  const popup = await popupOpened;
  await popup.waitForURL(host);
  const url = new URL(popup.url());
  expect(url.searchParams.get('client_id')).toBe(clientId);
  await popup.close();
  return url.searchParams.get('state') ?? '';
}

/** The Telegram account of this language's run, signed with the bot token like the real widget does. */
const telegramUser = (language: Language) =>
  signTelegramUser(botToken, { id: language === 'zh' ? 7001 : 7002, first_name: 'Tele', username: `tg${language}`, auth_date: Math.floor(Date.now() / 1000) });

const storedUsername = (page: Page) => page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string } | null)?.username ?? '');

describe.each<Language>(['zh'])('third-party logins (%s)', (language: Language) => {
  const auth = localeText('auth', language);
  const settings = localeText('settings', language);

  it('logs in with GitHub through the callback page', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await routeAuthorizePages(context);
    await page.goto('/login');
    await saveScreenshotsInBothThemes(page, `login-oauth-${language}`);
    const state = await authorizeState(
      page,
      () => page.getByRole('button', { name: auth('login.withGitHub') }).click(),
      /github\.com\/login\/oauth\/authorize/,
      'gh-client',
    );
    await page.goto(`/oauth/github?code=good-gh${language}&state=${state}`);
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => storedUsername(page)).not.toBe('');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('logs in with LinuxDO through the callback page', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await routeAuthorizePages(context);
    await page.goto('/login');
    const state = await authorizeState(
      page,
      () => page.getByRole('button', { name: auth('login.withLinuxDo') }).click(),
      /connect\.linux\.do\/oauth2\/authorize/,
      'ld-client',
    );
    await page.goto(`/oauth/linuxdo?code=good-ld${language}&state=${state}`);
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => storedUsername(page)).not.toBe('');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)('shows processing, then the error, for a refused code (%s theme)', async (theme) => {
    const { page, context } = await openConsole(browser, server.url, { language, theme });
    // The code exchange is held until the processing screen has been seen and photographed.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname === '/api/oauth/github',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto('/oauth/github?code=bad&state=nothing');
    await page.getByTestId('oauth-processing').getByText(auth('oauth.processing')).waitFor();
    await saveScreenshot(page, `oauth-processing-${language}-${theme}`);
    release();
    await page.waitForURL('**/login');
    await page.locator('.ant-message-error').first().waitFor();
    await context.close();
  });

  it('logs in with a WeChat code, then binds GitHub and Telegram from the personal settings', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await routeAuthorizePages(context, await telegramUser(language));
    await page.goto('/login');
    await page.getByRole('button', { name: auth('login.withWeChat') }).click();
    const dialog = page.getByRole('dialog', { name: auth('wechat.title') });
    await saveScreenshotsInBothThemes(page, `login-wechat-${language}`);
    // The cursor is in the code field at once: typing needs no click.
    await expect.poll(() => dialog.getByRole('textbox').evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type(`good-wx${language}`);
    await dialog.getByRole('button', { name: auth('login.submit') }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => storedUsername(page)).not.toBe('');

    await page.goto('/setting');
    const github = page.getByTestId('binding-github');
    await github.getByText(settings('bindings.notBound')).waitFor();
    const state = await authorizeState(page, () => page.getByTestId('bind-github').click(), /github\.com/, 'gh-client');
    await page.goto(`/oauth/github?code=good-bind${language}&state=${state}`);
    await page.waitForURL('**/setting');
    await github.getByText(`bind${language}`).waitFor();
    // Telegram binds through the widget's auth URL; the server sends the browser back to the settings.
    await page.getByTestId('binding-telegram').getByText('telegram-login').click();
    await page.waitForURL('**/setting**');
    await page
      .getByTestId('binding-telegram')
      .getByText(language === 'zh' ? '7001' : '7002')
      .waitFor();
    await saveScreenshotsInBothThemes(page, `settings-bound-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('logs in with the Telegram widget once the account is bound', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await routeTelegram(context, await telegramUser(language));
    await page.goto('/login');
    await page.getByText('telegram-login').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => storedUsername(page)).not.toBe('');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
