import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi } from '../support/api-session.ts';
import { loginAs, navigateInApp, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { keepTrafficLocal, stubEmptyPage } from '../support/local-frames.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openFileServer());
});

afterAll(() => closeFileServer(server));

const texts: Record<Language, { notFound: string; login: string; pricing: string; unreachable: string; channel: string; users: string; token: string }> = {
  zh: {
    notFound: '页面不存在，请检查地址是否正确',
    login: '登录',
    pricing: '模型价格',
    unreachable: '无法连接到服务器',
    channel: '渠道',
    users: '用户管理',
    token: '令牌',
  },
  en: {
    notFound: 'This page does not exist; check the address',
    login: 'Log in',
    pricing: 'Pricing',
    unreachable: 'Unable to connect to server',
    channel: 'Channels',
    users: 'Users',
    token: 'Tokens',
  },
};

describe.each<Language>(['en'])('console shell (%s)', (language) => {
  it('shows the system name, the top bar links and the default footer', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await page.goto('/about');
    await expect.poll(() => page.getByTestId('system-name').textContent()).toBe('Switchboard');
    await page.getByTestId('top-nav').getByText(texts[language].pricing).waitFor();
    await page.getByTestId('site-footer').getByText('Switchboard').waitFor();
    await page.getByRole('button', { name: texts[language].login }).waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('says the server cannot be reached when the status does not load', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.route(
      (url) => url.pathname === '/api/status',
      (route) => route.abort(),
    );
    await page.goto('/about');
    await page.locator('.ant-message-error', { hasText: texts[language].unreachable }).waitFor();
    await context.close();
  });

  it('shows the side menu by role and remembers it collapsed', async () => {
    const name = `menu${language}`;
    const root = await loginApi(server.url, 'root', '123456');
    await root.post('/api/user/', { username: name, password: 'password123', display_name: name });
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, 'root', '123456', '/token');
    const menu = page.getByTestId('side-menu');
    await menu.getByText(texts[language].users, { exact: true }).waitFor();
    await menu.getByText(texts[language].channel, { exact: true }).waitFor();
    await page.locator('.ant-layout-sider-trigger').click();
    await page.locator('.ant-layout-sider-collapsed').waitFor();
    await page.reload();
    await page.locator('.ant-layout-sider-collapsed').waitFor();
    await page.locator('.ant-layout-sider-trigger').click();
    await page.locator('.ant-layout-sider-collapsed').waitFor({ state: 'detached' });

    await loginAs(page, name, 'password123', '/token');
    await menu.getByText(texts[language].token, { exact: true }).waitFor();
    expect(await menu.getByText(texts[language].users, { exact: true }).count()).toBe(0);
    expect(await menu.getByText(texts[language].channel, { exact: true }).count()).toBe(0);
    // An ordinary user who opens an administrator's page is refused rather than shown failing calls.
    await navigateInApp(page, '/user');
    await page.locator('.ant-result-403').waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('sends a visitor from a protected page to /login', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.goto('/token');
    await page.waitForURL('**/login');
    await context.close();
  });

  it.each(['light', 'dark'] as const)('shows the not-found page (%s theme)', async (theme) => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, theme });
    await page.goto('/no/such/page');
    await page.getByText(texts[language].notFound).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    await saveScreenshot(page, `not-found-${language}-${theme}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('switches theme and language from the top bar and remembers them', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.goto('/about');
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const other: Language = language === 'zh' ? 'en' : 'zh';
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: other === 'en' ? 'English' : '简体中文' }).click();
    await page.getByTestId('top-nav').getByText(texts[other].pricing).waitFor();
    await page.reload();
    await page.getByTestId('top-nav').getByText(texts[other].pricing).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await context.close();
  });

  it("follows the system's reduced-motion setting: menus slide in with motion on and appear at once without", async () => {
    /**
     * Opens the language menu and says whether it came in animated: rc-motion's active step, which runs
     * the CSS animation. Without motion it still passes through a prepare step (to measure the popup),
     * never an active one.
     */
    async function menuAnimates(motion: 'reduce' | 'no-preference'): Promise<boolean> {
      const { page, context } = await openConsole(browser, server.url, { language, motion });
      await page.goto('/about');
      await page.getByTestId('language-menu').waitFor();
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { motionClasses: string[] }).motionClasses = seen;
        const note = (element: Element) => {
          const classes = element.getAttribute('class') ?? '';
          if (/\bant-[\w-]+-(appear|enter)-active\b/.test(classes)) seen.push(classes);
        };
        new MutationObserver((records) => {
          for (const record of records) {
            if (record.type === 'attributes') note(record.target as Element);
            for (const node of record.addedNodes) if (node instanceof Element) [node, ...node.querySelectorAll('*')].forEach(note);
          }
        }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true });
      });
      await page.getByTestId('language-menu').click();
      await page.getByRole('menuitem', { name: 'English' }).waitFor();
      const animated = await page.evaluate(() => (window as unknown as { motionClasses: string[] }).motionClasses.length > 0);
      await context.close();
      return animated;
    }

    expect(await menuAnimates('no-preference')).toBe(true);
    expect(await menuAnimates('reduce')).toBe(false);
  });
});

describe.each<Language>(['zh'])('public pages (%s)', (language) => {
  it.each(['light', 'dark'] as const)('shows home and about (%s theme)', async (theme) => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, theme });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Switchboard' }).waitFor();
    await saveScreenshot(page, `home-${language}-${theme}`);
    await navigateInApp(page, '/about');
    await page.locator('.ant-card-head-title').waitFor();
    await saveScreenshot(page, `about-${language}-${theme}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("shows the administrator's home page content and about text, as Markdown and as a framed https page", async () => {
    const root = await loginApi(server.url, 'root', '123456');
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await keepTrafficLocal(context);
    // An https page on the local address whose request the browser route answers with 204: the frame
    // is pointed at it but loads nothing, and nothing leaves 127.0.0.1.
    const framed = await stubEmptyPage(context, '/home-frame');
    const frameUrl = `${server.url.replace(/^http:/, 'https:')}/home-frame/${language}`;
    try {
      await root.setOptions({ HomePageContent: `# Home ${language}\n\nSaved **as Markdown**.`, About: `## About ${language}\n\n- first point` });
      await page.goto('/');
      await page.getByRole('heading', { name: `Home ${language}` }).waitFor();
      await page.locator('strong', { hasText: 'as Markdown' }).waitFor();
      await saveScreenshot(page, `home-markdown-${language}`);
      await page.goto('/about');
      await page.getByRole('heading', { name: `About ${language}` }).waitFor();
      await page.getByRole('listitem').filter({ hasText: 'first point' }).waitFor();
      await saveScreenshot(page, `about-markdown-${language}`);

      await root.setOptions({ HomePageContent: frameUrl });
      const frameRequest = page.waitForRequest(frameUrl);
      await page.goto('/');
      const frame = page.locator(`iframe[src="${frameUrl}"]`);
      await frame.waitFor();
      await expect.poll(() => framed.requests.map((url) => url.href)).toEqual([frameUrl]);
      // Sandboxed: scripts and popups only, and in an opaque origin (the frame's empty start page
      // would otherwise share the console's); and not told which console page framed it.
      expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-popups');
      const framedDocument = await (await frame.elementHandle())?.contentFrame();
      expect(await framedDocument?.evaluate(() => self.origin)).toBe('null');
      expect((await frameRequest).headers().referer).toBeUndefined();
      await saveScreenshot(page, `home-frame-${language}`);
    } finally {
      // The other tests expect the default home and about pages.
      await root.setOptions({ HomePageContent: '', About: '' });
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)('fits a phone: no side menu, a drawer instead (%s theme)', async (theme) => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, theme, width: 390 });
    await loginAs(page, 'root', '123456', '/user');
    await page.getByTestId('users-table').waitFor();
    expect(await page.getByTestId('side-menu').count()).toBe(0);
    await saveScreenshot(page, `users-mobile-${language}-${theme}`);
    await page.getByTestId('open-side-menu').click();
    await page.getByTestId('side-menu').waitFor();
    await saveScreenshot(page, `menu-mobile-${language}-${theme}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe('first screen', () => {
  it.each([
    ['/', 'home'],
    ['/login', 'login'],
  ])('%s loads its route lazily and stays under 400 KB of gzipped JavaScript', async (path) => {
    const { page, context } = await openConsole(browser, server.url);
    const scripts = new Map<string, number>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      // A body still being read when the context closes after the measurement is of no interest.
      void response.body().then(
        (body) => scripts.set(response.url(), gzipSync(body).length),
        () => undefined,
      );
    });
    await page.goto(path);
    await page.locator('.ant-layout-footer').waitFor();
    await page.waitForLoadState('networkidle');
    const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
    expect(scripts.size).toBeGreaterThan(1);
    // Pages of other routes are separate chunks that this screen never fetched.
    expect([...scripts.keys()].some((url) => /\/(users|settings|channels|tokens)-[\w-]+\.js$/.test(url))).toBe(false);
    expect(total).toBeLessThan(400 * 1024);
    await context.close();
  });
});
