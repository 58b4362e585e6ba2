import { readFile } from 'node:fs/promises';
import { exportHeaders } from '@switchboard/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enCommon from '../../../packages/web/src/locales/en/common.json' with { type: 'json' };
import zhCommon from '../../../packages/web/src/locales/zh/common.json' with { type: 'json' };
import { type Language, navigateInApp, saveScreenshot } from '../../support/browser.ts';
import { locales } from './locales.ts';
import { createWorld, localePattern, type OperationsWorld } from './operations-world.ts';
import { seed, seedOperations } from './seed.ts';

let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
  await seedOperations(world);
});

afterAll(async () => {
  await world?.close();
});

const common = { zh: zhCommon, en: enCommon };

/** The CSV's records (cells split on commas; the checks below read only cells without commas). */
function records(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

/** Clicks the table's export button and reads the file the browser saved. */
async function exportFrom(page: Page, language: 'zh' | 'en'): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.locator('.ant-btn').filter({ hasText: common[language].export.csv }).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

const tables = [
  { table: 'logs', path: '/log', ready: (page: Page) => page.locator('tr.ant-table-row', { hasText: seed.model }).first().waitFor(), holds: seed.model },
  { table: 'tokens', path: '/token', ready: (page: Page) => page.locator('tr.ant-table-row', { hasText: seed.token }).waitFor(), holds: seed.token },
  { table: 'channels', path: '/channel', ready: (page: Page) => page.locator('tr.ant-table-row', { hasText: seed.channel }).waitFor(), holds: seed.channel },
  {
    table: 'redemptions',
    path: '/redemption',
    ready: (page: Page) => page.locator('tr.ant-table-row', { hasText: seed.code }).first().waitFor(),
    holds: seed.code,
  },
  { table: 'users', path: '/user', ready: (page: Page) => page.locator('tr.ant-table-row', { hasText: 'root' }).waitFor(), holds: 'root' },
] as const;

describe.each<Language>(['zh'])('CSV exports and the live dashboard (%s)', (language) => {
  it('downloads every table as CSV with the console column names of the language', async () => {
    const { page, context, consoleErrors } = await world.open('/token', { language });
    for (const { table, path, ready, holds } of tables) {
      await navigateInApp(page, path);
      await ready(page);
      const file = await exportFrom(page, language);
      expect(file.name).toMatch(new RegExp(`^${table}-\\d{8}-\\d{6}\\.csv$`));
      expect(file.text.startsWith('\uFEFF')).toBe(true);
      const [header, ...rows] = records(file.text.slice(1));
      const expected = Object.values(exportHeaders[table]).map((column) => column[language]);
      // Self-service tables (tokens) have every column; the log export is the administrator's (channel columns included).
      expect(header).toEqual(expected);
      expect(rows.some((row) => row.includes(holds))).toBe(true);
      if (table === 'tokens') for (const row of rows) expect(row[2]).toMatch(/^sk-\w{4}\*{10}\w{4}$/);
      if (table === 'channels') expect(file.text).not.toContain('sk-seed');
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it('counts a new request on the dashboard without a reload, per model and per channel', async () => {
    const text = locales[language].dashboard;
    const { page, context, consoleErrors } = await world.open('/detail', { language });
    const calls = page.locator('.ant-statistic').filter({ hasText: text.summary.count }).locator('.ant-statistic-content-value');
    await page.getByTestId('dashboard-live').waitFor();
    const channelRow = page.getByTestId('channel-stats').locator('tr.ant-table-row', { hasText: seed.channel });
    await channelRow.waitFor();
    const before = Number(await calls.innerText());
    const channelCallsBefore = Number(await channelRow.locator('td').nth(1).innerText());
    expect(before).toBeGreaterThan(0);

    const chat = await world.root.post<{ choices?: unknown[] }>('/pg/chat/completions', {
      model: seed.model,
      messages: [{ role: 'user', content: 'live?' }],
      stream: false,
    });
    expect(Array.isArray((chat as unknown as { choices?: unknown[] }).choices)).toBe(true);
    // The page refetches on its own while its range reaches the present; nothing here reloads it.
    await expect.poll(async () => Number(await calls.innerText()), { timeout: 30_000 }).toBe(before + 1);
    await expect.poll(async () => Number(await channelRow.locator('td').nth(1).innerText()), { timeout: 30_000 }).toBe(channelCallsBefore + 1);
    // Latency p50 of the channel's answered calls, in milliseconds: "≤ N ms" (the fake upstream answers at once).
    await page.getByTestId('channel-stats').getByText(text.channels.p50).first().waitFor();
    expect(await channelRow.locator('td').nth(4).innerText()).toMatch(localePattern(text.channels.milliseconds));
    await saveScreenshot(page, `ops-dashboard-live-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
