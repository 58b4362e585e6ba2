import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshot, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { fakeWebPage, keepTrafficLocal } from '../support/local-frames.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

/**
 * Chat links end to end: the token page's Chat button, the side menu, /chat/{id}, /chat2link and the
 * spec's messages. The "outside" chat front end is a page on 127.0.0.1 that the browser routes answer,
 * and everything addressed elsewhere is aborted, so nothing leaves the machine.
 */
let server: TestServer;
let browser: Browser;
let root: ApiSession;

const fakeChatPath = '/fake-chat/';
const chats = () =>
  JSON.stringify([
    { 'Fake Chat': `${server.url}${fakeChatPath}?key={key}&address={address}` },
    { 'Cherry Studio': 'cherrystudio://providers/api-keys?v=1&data={cherryConfig}' },
  ]);

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
  await root.setOptions({ Chats: chats() });
});

afterAll(() => closeFileServer(server));

interface ChatUser {
  username: string;
  password: string;
  /** The newest (disabled) token, at the top of the token list. */
  newest: { name: string; key: string };
  /** The only enabled token's key (without sk-). */
  enabledKey: string;
}

/**
 * A user with 11 tokens of which only the oldest is enabled: the newest 10 (the first page of the
 * token list) are disabled, so the chat pages must look past the first page to find the key.
 */
async function userWithBuriedToken(username: string): Promise<ChatUser> {
  const password = 'password123';
  expect((await root.post('/api/user/', { username, password, display_name: username })).success).toBe(true);
  const session = await loginApi(server.url, username, password);
  const created = await session.post<Array<{ id: number; key: string; name: string }>>('/api/token/', { name: 'buried', count: 11 });
  expect(created.success, created.message).toBe(true);
  const tokens = [...created.data].sort((a, b) => a.id - b.id);
  for (const token of tokens.slice(1)) expect((await session.put(`/api/token/?status_only=true`, { id: token.id, status: 2 })).success).toBe(true);
  const newest = tokens[tokens.length - 1];
  return { username, password, newest: { name: newest?.name ?? '', key: newest?.key ?? '' }, enabledKey: tokens[0]?.key ?? '' };
}

describe.each<Language>(['en'])('chat links (%s)', (language: Language) => {
  const chat = localeText('chat', language);
  const tokens = localeText('tokens', language);
  const common = localeText('common', language);
  let user: ChatUser;

  beforeAll(async () => {
    user = await userWithBuriedToken(`chat${language}`);
  });

  async function open(username: string, password: string, path: string) {
    const opened = await openConsole(browser, server.url, { language });
    await keepTrafficLocal(opened.context);
    const fake = await fakeWebPage(opened.context, fakeChatPath, 'fake chat front end');
    await loginAs(opened.page, username, password, path);
    return { ...opened, fake };
  }

  it("opens the chat front end from a token's Chat button with its sk- key and the server address", async () => {
    const { page, context, consoleErrors, fake } = await open(user.username, user.password, '/token');
    // Any row's button opens the link with that row's key (the newest token, disabled, is first).
    const row = page.locator('tr.ant-table-row', { hasText: user.newest.name });
    // Two chat links configured: the button opens a menu of them.
    await row.getByRole('button', { name: tokens('actions.chat') }).click();
    const popupOpened = context.waitForEvent('page');
    await page.getByRole('menuitem', { name: 'Fake Chat' }).click();
    const popup = await popupOpened;
    await expect.poll(() => fake.requests.length).toBe(1);
    const opened = fake.requests[0];
    expect(opened?.searchParams.get('key')).toBe(`sk-${user.newest.key}`);
    expect(opened?.searchParams.get('address')).toBe(server.url);
    await popup.close();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('frames the first chat front end at /chat/0 from the side menu, with the first enabled token past the first page', async () => {
    const { page, context, consoleErrors } = await open(user.username, user.password, '/token');
    const menu = page.getByTestId('side-menu');
    await menu.getByText(common('menu.chat'), { exact: true }).click();
    await menu.getByText('Fake Chat', { exact: true }).click();
    await page.waitForURL('**/chat/0');
    const frame = page.locator('iframe[title="Fake Chat"]');
    const source = new URL((await frame.getAttribute('src')) ?? '');
    expect(source.pathname).toBe(fakeChatPath);
    expect(source.searchParams.get('key')).toBe(`sk-${user.enabledKey}`);
    expect(source.searchParams.get('address')).toBe(server.url);
    await page.frameLocator('iframe[title="Fake Chat"]').getByText('fake chat front end').waitFor();
    await saveScreenshotsInBothThemes(page, `chat-frame-${language}`);

    // A desktop app cannot be framed: /chat/1 offers its link instead.
    await page.goto('/chat/1');
    const openApp = page.getByRole('link', { name: chat('open') });
    const href = (await openApp.getAttribute('href')) ?? '';
    expect(href.startsWith('cherrystudio://providers/api-keys?v=1&data=')).toBe(true);
    const config = JSON.parse(Buffer.from(decodeURIComponent(href.split('data=')[1] ?? ''), 'base64').toString('utf8')) as unknown;
    expect(config).toEqual({ id: 'new-api', baseUrl: server.url, apiKey: `sk-${user.enabledKey}` });
    await page.getByText(chat('openApp', { name: 'Cherry Studio' })).waitFor();
    await saveScreenshot(page, `chat-app-link-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('sends /chat2link to the first web front end, or to ChatLink in Next-Web form when that is set', async () => {
    const { page, context, consoleErrors, fake } = await open(user.username, user.password, '/chat2link');
    await page.waitForURL((url) => url.pathname === fakeChatPath);
    const target = new URL(page.url());
    expect(target.searchParams.get('key')).toBe(`sk-${user.enabledKey}`);
    expect(target.searchParams.get('address')).toBe(server.url);

    await root.setOptions({ ChatLink: `${server.url}${fakeChatPath}next-web` });
    try {
      await page.goto('/chat2link');
      await page.waitForURL((url) => url.pathname === `${fakeChatPath}next-web/`);
      const settings = decodeURIComponent(new URL(page.url()).hash);
      expect(settings).toBe(`#/?settings={"key":"sk-${user.enabledKey}","url":"${server.url}"}`);
    } finally {
      await root.setOptions({ ChatLink: '' });
    }
    expect(fake.requests.length).toBe(2);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('says there is no enabled token, then goes to /token after 1.5 s', async () => {
    const username = `none${language}`;
    expect((await root.post('/api/user/', { username, password: 'password123', display_name: username })).success).toBe(true);
    const { page, context, consoleErrors } = await open(username, 'password123', '/chat/0');
    await page.locator('.ant-result-title', { hasText: chat('noEnabledToken') }).waitFor();
    const shownAt = Date.now();
    await page.locator('.ant-message-notice', { hasText: chat('noEnabledToken') }).waitFor();
    await saveScreenshot(page, `chat-no-token-${language}`);
    await page.waitForURL('**/token');
    expect(Date.now() - shownAt).toBeGreaterThan(1000);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("says when chat links are broken or missing, on the chat page and the token page's button", async () => {
    const { page, context, consoleErrors } = await open(user.username, user.password, '/token');
    try {
      await root.setOptions({ Chats: '[{"Broken": 1}]' });
      await page.goto('/chat/0');
      await page.locator('.ant-result-title', { hasText: chat('configError') }).waitFor();
      await saveScreenshotsInBothThemes(page, `chat-config-error-${language}`);
      await page.goto('/token');
      // The menu drops Chat once the fresh status arrives (the cached one still has the old links).
      const menu = page.getByTestId('side-menu');
      await menu.getByText(common('menu.token'), { exact: true }).waitFor();
      await expect.poll(() => menu.getByText(common('menu.chat'), { exact: true }).count()).toBe(0);
      await page
        .locator('tr.ant-table-row', { hasText: user.newest.name })
        .getByRole('button', { name: tokens('actions.chat') })
        .click();
      await page.locator('.ant-message-notice', { hasText: tokens('messages.chatLinkInvalid') }).waitFor();

      await root.setOptions({ Chats: '[]' });
      await page.goto('/chat/0');
      await page.locator('.ant-result-title', { hasText: chat('missingLink') }).waitFor();
    } finally {
      await root.setOptions({ Chats: chats() });
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('shows a failed token load as an error, not as having no token', async () => {
    const { page, context, consoleErrors } = await open(user.username, user.password, '/token');
    await page.route(
      (url) => url.pathname === '/api/token/',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'boom' }) }),
    );
    await page.goto('/chat/0');
    await page.locator('.ant-result-title', { hasText: chat('loadFailed') }).waitFor();
    await page.getByText(common('http.serverError')).waitFor();
    expect(await page.getByText(chat('noEnabledToken')).count()).toBe(0);
    await saveScreenshot(page, `chat-load-failed-${language}`);
    // The browser reports the 500 itself; nothing else may fail.
    expect(consoleErrors.filter((error) => !(error.includes('500') && error.includes('/api/token/')))).toEqual([]);
    await context.close();
  });
});
