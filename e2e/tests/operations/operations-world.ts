import type { Browser, Page } from 'playwright-core';
import { FakeOpenAIUpstream } from '../../../packages/server/src/entry/relay/testing/fake-openai-upstream.ts';
import { loginApi, type ApiSession } from '../../support/api-session.ts';
import { closeFileContexts, workerBrowser, loginAs, openConsole, type ConsolePage, type PageOptions } from '../../support/browser.ts';
import { startServer, type TestServer } from '../../support/server.ts';

/**
 * What an operations browser test needs: a real server with a fresh database, a fake OpenAI upstream on
 * 127.0.0.1 (the real wire format, streaming included), Chromium, and the root user's API session for
 * arranging data the way the console would.
 */
export interface OperationsWorld {
  server: TestServer;
  upstream: FakeOpenAIUpstream;
  browser: Browser;
  root: ApiSession;
  /** A logged-in console page (root) on `path`. */
  open(path: string, options?: PageOptions): Promise<ConsolePage>;
  close(): Promise<void>;
}

export const rootPassword = 'e2e-root-password';

/** `env` adds server variables (QUOTA_JOURNAL_DIR, …). */
export async function createWorld(env: Record<string, string> = {}): Promise<OperationsWorld> {
  const upstream = new FakeOpenAIUpstream();
  const [server, browser] = await Promise.all([startServer({ INITIAL_ROOT_PASSWORD: rootPassword, ...env }), workerBrowser(), upstream.start()]);
  const root = await loginApi(server.url, 'root', rootPassword);
  return {
    server,
    upstream,
    browser,
    root,
    async open(path, options) {
      const console = await openConsole(browser, server.url, options);
      await loginAs(console.page, 'root', rootPassword, path);
      return console;
    },
    async close() {
      await closeFileContexts();
      await server.stop();
      await upstream.stop();
    },
  };
}

/** The success toast antd shows (`message.success`) containing `text`. */
export async function waitForToast(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
}

/** Turns `{{placeholder}}` locale text into a pattern that matches any value in its place. */
export function localePattern(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{\w+\\\}\\\}/g, '.*');
  return new RegExp(escaped);
}

/**
 * An accessible-name pattern for a button label; antd spaces out two-character Chinese labels ("搜 索"),
 * and a button that has just stopped loading keeps its spinner (aria-label "loading") in its name
 * until the spinner's exit transition has ended.
 */
export function buttonName(text: string): RegExp {
  return new RegExp(`^\\s*(loading\\s*)?${[...text].map((character) => character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}\\s*$`);
}
