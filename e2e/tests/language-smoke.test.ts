import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, navigateInApp, openConsole, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { webRoot } from '../support/paths.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

/**
 * Every screen of the console, opened in both languages. The flow tests run each flow in one language
 * (half the browser time); this pass is what keeps the other language honest on every screen: the page
 * renders without errors, the side menu speaks the chosen language, no i18n key is shown raw (a
 * missing translation), and the English console shows no Chinese text. `npm run check:locales` checks
 * the locale files themselves (same keys in zh and en).
 */

/** Screens opened by URL; parameterised routes are reached from these in the flow tests. */
const screens = [
  '/',
  '/about',
  '/pricing',
  '/login',
  '/register',
  '/reset',
  '/setup',
  '/user',
  '/user/edit',
  '/setting?tab=personal',
  '/setting?tab=operation',
  '/setting?tab=system',
  '/setting?tab=other',
  '/channel',
  '/channel/add',
  '/token',
  '/redemption',
  '/models',
  '/topup',
  '/log',
  '/midjourney',
  '/task',
  '/playground',
  '/detail',
  '/no/such/page',
];

/** Routes a URL cannot open on its own: they need an id, or a provider's callback parameters. */
const reachedFromOtherScreens = new Set(['/user/edit/:id', '/channel/edit/:id', '/chat/:id?', '/oauth/:provider', '/user/reset']);
/** Leaves the console at once for the first chat link's page (chat.test.ts covers it). */
const leavesTheConsole = new Set(['/chat2link']);

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  const opened = await openFileServer();
  ({ server, browser } = opened);
  // A little of everything, so lists and charts render rows rather than only their empty state.
  const { root } = opened;
  await root.post('/api/user/', { username: 'smoke', password: 'password123', display_name: 'smoke' });
  await root.post('/api/token/', { name: 'smoke-token', remain_quota: 500000, expired_time: -1 });
  await root.post('/api/redemption/', { name: 'smoke-code', quota: 100000, count: 1 });
});

afterAll(() => closeFileServer(server));

it('covers every screen the router serves', () => {
  const router = readFileSync(join(webRoot, 'src', 'app', 'router.tsx'), 'utf8');
  const routed = [...router.matchAll(/page\('([^']+)'/g)].map((match) => match[1]!);
  expect(routed.length).toBeGreaterThan(20);
  const opened = new Set(screens.map((screen) => screen.split('?')[0]));
  const missing = routed.filter((path) => !opened.has(path) && !reachedFromOtherScreens.has(path) && !leavesTheConsole.has(path));
  expect(missing).toEqual([]);
});

/** An i18next key shown as is: dotted lower camelCase words (`menu.token`, `tabs.personal`), never a host or a version. */
const rawKey = /(?<![\w./:-])(?:[a-z]+:)?[a-z][a-zA-Z]*(?:\.[a-z][a-zA-Z]*){1,3}(?![\w./@-])/g;
const hostLike = /\.(?:com|org|net|io|ai|cn|dev|app|local|localhost|png|svg|json|md|ts|js)$/;
const cjk = /[\u3400-\u9fff\uff01-\uff60]/;

/**
 * The visible text of the page, with the language picker's own names and the values inside form
 * fields taken out: a field shows stored data (new-api's default chat links carry Chinese names), not
 * the console's words.
 */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    clone.querySelectorAll('[data-testid="language-menu"], textarea, script, style, noscript').forEach((node) => node.remove());
    return clone.innerText;
  });
}

/** Waits until the screen has drawn its content: the layout is there and no loading spinner is left. */
async function settled(page: Page): Promise<void> {
  await page.locator('.ant-layout').first().waitFor();
  await expect.poll(() => page.locator('.ant-spin-spinning, .ant-skeleton-active').count(), { timeout: 15_000 }).toBe(0);
}

describe.each(['zh', 'en'] as const)('every screen in %s', (language: Language) => {
  const menu = localeText('common', language);
  let session: Awaited<ReturnType<typeof openConsole>>;

  beforeAll(async () => {
    session = await openConsole(browser, server.url, { language });
    await loginAs(session.page, 'root', '123456', '/token');
    await session.page.getByTestId('side-menu').getByText(menu('menu.token'), { exact: true }).waitFor();
  });

  afterAll(async () => {
    await session?.context.close();
  });

  // The screens below are opened through the router (one load of the console for all of them, not one
  // each), so what the console logs while it starts is checked once, here.
  it('starts with no error', async () => {
    await settled(session.page);
    expect(session.consoleErrors).toEqual([]);
  });

  it.each(screens)('%s renders with no error and no raw key', async (screen) => {
    const { page, consoleErrors } = session;
    const errorsBefore = consoleErrors.length;
    await navigateInApp(page, screen);
    await settled(page);
    expect(await page.locator('[data-testid="route-error"]').count()).toBe(0);
    const text = await visibleText(page);
    const keys = [...text.matchAll(rawKey)].map((match) => match[0]).filter((word) => !hostLike.test(word));
    expect(keys).toEqual([]);
    if (language === 'en') expect(text.split('\n').filter((line) => cjk.test(line))).toEqual([]);
    expect(consoleErrors.slice(errorsBefore)).toEqual([]);
  });
});
