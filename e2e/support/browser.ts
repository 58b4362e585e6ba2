import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshotDir } from './paths.ts';

export type Language = 'zh' | 'en';
export type ThemeMode = 'light' | 'dark';

let workerChromium: Promise<Browser> | undefined;

/**
 * This vitest worker's Chromium (Debian's, headless), launched on the first call and shared by the files
 * the worker runs one after another (the suite runs with `isolate: false`): a launch per file was a
 * second of CPU and more on a loaded machine. Files stay apart through their own contexts, which
 * `closeFileContexts` ends in each file's `afterAll`. A browser that crashed or was closed is launched
 * again; Playwright closes this one when the worker exits (vitest ends it with SIGTERM).
 */
export function workerBrowser(): Promise<Browser> {
  workerChromium ??= launchChromium().then(
    (browser) => {
      browser.once('disconnected', () => (workerChromium = undefined));
      return browser;
    },
    (error: unknown) => {
      workerChromium = undefined;
      throw error;
    },
  );
  return workerChromium;
}

/**
 * Closes every context open in the worker's browser, so the next file starts with none of this file's
 * pages, cookies or routes. Files in a worker run one at a time, so every open context is this file's.
 */
export async function closeFileContexts(): Promise<void> {
  const browser = await workerChromium?.catch(() => undefined);
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Errors the page logged or threw; a screen is expected to leave this empty. */
  consoleErrors: string[];
}

export interface PageOptions {
  language?: Language;
  theme?: ThemeMode;
  /** Viewport width; below 600 the console switches to its mobile layout. */
  width?: number;
  /**
   * The system's motion setting; `reduce` unless a test is about motion. The console then turns antd's
   * motion off, so a popover or dialog is gone the moment it closes. With motion on, a closing popover
   * waits for animation frames (two per step) and its animationend; on a loaded two-core machine a CI
   * run saw confirmations still on screen after the whole 30 s wait, in two files, retries included.
   */
  motion?: 'reduce' | 'no-preference';
}

/**
 * A fresh browser context (own cookies and storage) on `baseUrl`, with the language and theme preset
 * in localStorage before any page script runs, collecting console errors.
 */
export async function openConsole(browser: Browser, baseUrl: string, options: PageOptions = {}): Promise<ConsolePage> {
  const width = options.width ?? 1280;
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width, height: 800 },
    locale: options.language === 'en' ? 'en-US' : 'zh-CN',
    reducedMotion: options.motion ?? 'reduce',
  });
  await context.addInitScript(
    ([language, theme]) => {
      // Only the console itself is preset, not the frames it embeds (a sandboxed one has no storage).
      if (window !== window.top) return;
      // Only the first load of the context is preset, so switching in the page sticks afterwards.
      if (!sessionStorage.getItem('e2e-preset')) {
        localStorage.setItem('i18nextLng', language);
        localStorage.setItem('theme', theme);
        sessionStorage.setItem('e2e-preset', '1');
      }
    },
    [options.language ?? 'zh', options.theme ?? 'light'] as const,
  );
  // A screen that needs longer than this is a failure worth seeing quickly.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    // The URL matters for 'Failed to load resource' errors, whose text does not name it.
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { context, page, consoleErrors };
}

/** Saves a full-page screenshot as test-artifacts/screenshots/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  // From the top: a full-page capture of a scrolled page paints the sticky top bar where it floats.
  await page.evaluate(() => window.scrollTo(0, 0));
  // Finite animations and transitions (a theme switch fades every control) are fast-forwarded to their end.
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Saves the screen as it stands at a phone's width (390×844), then puts the viewport back. */
export async function savePhoneScreenshot(page: Page, name: string): Promise<void> {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot(page, name);
  await page.setViewportSize(before);
}

/**
 * Logs in through the API inside the page's context (so the session cookie lands in the browser) and
 * opens `path` with the user already stored the way the login page stores it: an init script puts it
 * in localStorage before the console's first script runs. One page load, not a load of /login first
 * and then of `path`: a load of the console costs Chromium one to two seconds of CPU.
 */
export async function loginAs(page: Page, username: string, password: string, path = '/token'): Promise<void> {
  const response = await page.request.post('/api/user/login', { data: { username, password } });
  const answer = (await response.json()) as { success: boolean; message: string; data: unknown };
  if (!answer.success) throw new Error(`login as ${username} failed: ${answer.message}`);
  // Only on the next load of this tab (a flag per login in its sessionStorage): a later logout, reload
  // or second login on the same page is not undone.
  await page.addInitScript(
    ([user, flag]) => {
      if (window !== window.top || sessionStorage.getItem(flag)) return;
      localStorage.setItem('user', JSON.stringify(user));
      sessionStorage.setItem(flag, '1');
    },
    [answer.data, `e2e-login-${randomUUID()}`] as const,
  );
  await page.goto(path);
}

/**
 * Opens `path` the way the console's own links do: through its router, without loading the page again
 * (`page.goto` loads and starts the whole console, one to two seconds of Chromium CPU each). Returns once
 * the console has rendered the new location: the router renders a navigation in a transition, which
 * keeps the old screen up while the new one's code loads, so a check made right after the address
 * changed could read the old screen. The console's layout names the location it rendered in
 * `data-location`, watched from before the navigation (a screen that redirects at once shows it only
 * for a moment). Nothing happens when the console already shows `path`.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  const target = new URL(path, page.url());
  await page.evaluate(async (to) => {
    const shown = () => document.querySelector('[data-location]')?.getAttribute('data-location');
    if (shown() === to) return;
    const rendered = new Promise<void>((resolve, reject) => {
      const observer = new MutationObserver(() => {
        if (shown() !== to) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve();
      });
      observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-location'] });
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`the console did not render ${to} within 10 s (it shows ${shown()})`));
      }, 10_000);
    });
    // The router's history keeps its position in `idx`; a pop event with the next one is a navigation.
    const index = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: index }, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    await rendered;
  }, target.pathname + target.search);
}

/** The console's page background, which the dark theme changes (antd paints it from the theme tokens). */
function layoutBackground(page: Page): Promise<string> {
  return page.evaluate(() => {
    const layout = document.querySelector('.ant-layout');
    return layout ? getComputedStyle(layout).backgroundColor : '';
  });
}

/**
 * Saves `<name>-light.png` and `<name>-dark.png` of the screen as it stands (dialogs stay open): the
 * top bar's theme switch is clicked by a DOM event, which an open dialog's mask cannot intercept, and
 * the screenshot waits until the page has repainted in the other theme. The theme is restored after.
 */
export async function saveScreenshotsInBothThemes(page: Page, name: string): Promise<void> {
  const switchTheme = async () => {
    const before = await layoutBackground(page);
    await page.getByTestId('theme-switch').dispatchEvent('click');
    await expect.poll(() => layoutBackground(page)).not.toBe(before);
  };
  const start = (await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark' ? 'dark' : 'light';
  const other = start === 'dark' ? 'light' : 'dark';
  await saveScreenshot(page, `${name}-${start}`);
  await switchTheme();
  await saveScreenshot(page, `${name}-${other}`);
  await switchTheme();
}
