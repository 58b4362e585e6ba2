import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureOptions, fixtureRows, passwords } from '../../packages/server/src/core/db/move-over/__fixtures__/fixture-rows.ts';
import { loadFixture } from '../../packages/server/src/core/db/move-over/__fixtures__/load-fixture.ts';
import { oneApiModels } from '../../packages/server/src/core/db/move-over/__fixtures__/one-api.ts';
import { openDatabase } from '../../packages/server/src/core/platform/database.ts';
import { closeFileContexts, workerBrowser, loginAs, openConsole, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { startServer, type TestServer } from '../support/server.ts';

/**
 * Issue 21: started on a one-api SQLite database, the root sees once, in either language, what the
 * mapping step did, and after closing the notice it is gone for good; an administrator never sees it.
 */
let folder: string;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchboard-move-over-'));
  const path = join(folder, 'one-api.db');
  const database = await openDatabase('', path);
  try {
    await loadFixture(database.db, 'sqlite', oneApiModels, fixtureRows('one-api', 'sqlite', 'http://127.0.0.1:9', 20).tables);
  } finally {
    await database.close();
  }
  server = await startServer({ SQLITE_PATH: path });
  browser = await workerBrowser();
});

afterAll(async () => {
  await closeFileContexts();
  await server?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The old database's Logo option points outside; the browser gets it from here, offline. */
async function serveOldLogo(context: BrowserContext): Promise<void> {
  await context.route(fixtureOptions.Logo ?? '', (route) => route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"/>' }));
}

describe('the one-api move-over notice', () => {
  const shows = async (language: Language, dismiss: boolean) => {
    const text = localeText('move-over', language);
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await serveOldLogo(context);
    await loginAs(page, 'root', passwords.root.password, '/token');
    const banner = page.getByTestId('move-over-banner');
    await banner.getByText(text('title')).waitFor();
    await banner.getByText(text('channelDisabled', { id: 9, name: 'deepl', vendor: 'DeepL' })).waitFor();
    await banner.getByText(text('channelMapped', { id: 7, name: 'deepseek', vendor: 'DeepSeek', from: 36, to: 43 })).waitFor();
    if (dismiss) {
      const dismissed = page.waitForResponse((response) => response.url().endsWith('/api/move-over/dismiss'));
      await banner.getByRole('button', { name: text('dismiss') }).click();
      expect((await dismissed).status()).toBe(200);
      await page.reload();
      await page.locator('.ant-table').first().waitFor();
      expect(await page.getByTestId('move-over-banner').count()).toBe(0);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  };

  it('shows the root what was mapped, in English', () => shows('en', false));

  it('shows it in Chinese, and once closed it stays closed', () => shows('zh', true));

  it('never shows an administrator anything', async () => {
    const { page, context } = await openConsole(browser, server.url, { language: 'zh' });
    await serveOldLogo(context);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/move-over')) asked.push(request.url());
    });
    await loginAs(page, 'admin', passwords.admin.password, '/token');
    await page.locator('.ant-table').first().waitFor();
    expect(asked).toEqual([]);
    await context.close();
  });
});
