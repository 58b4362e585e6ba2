import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigateInApp, saveScreenshot, type Language } from '../../support/browser.ts';
import { screenshotDir } from '../../support/paths.ts';
import enSettings from '../../../packages/web/src/locales/en/settings.json' with { type: 'json' };
import zhSettings from '../../../packages/web/src/locales/zh/settings.json' with { type: 'json' };
import { locales } from './locales.ts';
import { buttonName, createWorld, localePattern, type OperationsWorld } from './operations-world.ts';
import { createSeedChannel, expectSuccess, seed } from './seed.ts';

/**
 * Issue 36's console items: money at the precision that shows it, the token key dialog, the dashboard
 * (latency in milliseconds), and the layout (fixed side menu, right-pinned actions, phone tables).
 */
let world: OperationsWorld;
let chargedQuota = 0;
const tokenName = 'e2e-tiny-token';
const userName = 'e2e-shown';

beforeAll(async () => {
  world = await createWorld();
  await createSeedChannel(world);
  expectSuccess(
    await world.root.post('/api/token/', { name: tokenName, remain_quota: 500_000, expired_time: -1, unlimited_quota: false }),
    'creating the token',
  );
  expectSuccess(await world.root.post('/api/user/', { username: userName, password: 'e2e-display-password', display_name: userName }), 'creating a user');
  expectSuccess(await world.root.post('/api/redemption/', { name: 'e2e-display-code', quota: 1_000_000, count: 1 }), 'creating a code');
  const token = (await world.root.get<Array<{ key: string }>>(`/api/token/search?keyword=${tokenName}`)).data[0];
  // 12 prompt and 6 completion tokens of gpt-4o-mini: a charge of a few quota units, millionths of a dollar.
  const answer = await fetch(`${world.server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer sk-${token?.key ?? ''}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: seed.model, messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(answer.status).toBe(200);
  // The relay writes its logs in batches: wait for the consume log.
  for (let attempt = 0; attempt < 100 && chargedQuota === 0; attempt += 1) {
    const logs = await world.root.get<{ items: Array<{ quota: number }> } | Array<{ quota: number }>>('/api/log/?type=2&p=0&page_size=10');
    chargedQuota = (Array.isArray(logs.data) ? logs.data : logs.data.items)[0]?.quota ?? 0;
    if (chargedQuota === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  await world?.close();
});

/** "$0.000006": a dollar amount that is not zero. */
const tinyDollars = /^\$0\.0000\d+$/;

async function hoverText(page: Page, target: Locator): Promise<string> {
  await target.hover();
  const tooltip = page.locator('.ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-container, .ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-inner').last();
  await tooltip.waitFor();
  return tooltip.innerText();
}

describe.each<Language>(['en'])('money at the precision that shows it (%s)', (language: Language) => {
  const text = locales[language];

  it('shows a tiny charge as millionths of a dollar everywhere, with the exact figure on hover', async () => {
    expect(chargedQuota).toBeGreaterThan(0);
    expect(chargedQuota).toBeLessThan(5_000);
    const expected = `$${(chargedQuota / 500_000).toFixed(6)}`;
    const { page, context, consoleErrors } = await world.open('/log', { language, width: 1440 });

    // The log row's cost, and the header total that adds it up.
    const costCell = page.locator('tr.ant-table-row', { hasText: seed.model }).first().locator('[data-quota]');
    await expect.poll(() => costCell.innerText()).toBe(expected);
    await expect.poll(() => page.getByTestId('log-stats').innerText()).toContain(expected);
    expect(await hoverText(page, costCell)).toContain(String(chargedQuota));
    await saveScreenshot(page, `money-logs-${language}`);

    // The dashboard's consumption card, and the per-channel cost.
    await navigateInApp(page, '/detail');
    const card = page.getByTestId('dashboard-quota').locator('[data-quota]');
    await expect.poll(() => card.innerText()).toMatch(tinyDollars);
    await expect.poll(() => page.getByTestId('channel-stats').locator('[data-quota]').first().innerText()).toMatch(tinyDollars);
    await saveScreenshot(page, `money-dashboard-${language}`);

    // A token's used quota, a channel's used quota, a user's stats, the wallet.
    await navigateInApp(page, '/token');
    const tokenRow = page.locator('tr.ant-table-row', { hasText: tokenName });
    await expect.poll(() => tokenRow.locator('[data-quota]').first().innerText()).toBe(expected);
    await navigateInApp(page, '/channel');
    const channelUsed = page.locator('tr.ant-table-row', { hasText: seed.channel }).locator('[data-quota]').first();
    await expect.poll(() => channelUsed.innerText()).toMatch(localePattern(text.channels.quota.used));
    await expect.poll(() => channelUsed.innerText()).toContain(expected);
    await navigateInApp(page, '/user');
    const rootRow = page.locator('tr.ant-table-row', { hasText: 'root' }).first();
    await expect.poll(() => rootRow.locator('[data-quota]').nth(1).innerText()).toMatch(tinyDollars);
    await navigateInApp(page, '/topup');
    await page.getByText(text.wallet.redeem.title).waitFor();
    await expect.poll(() => page.locator('[data-quota]').nth(1).innerText()).toMatch(tinyDollars);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe('money in the other display types', () => {
  it('shows raw quota, yuan and a custom currency as settings choose', async () => {
    const { page, context, consoleErrors } = await world.open('/log', { language: 'en', width: 1440 });
    const costCell = page.locator('tr.ant-table-row', { hasText: seed.model }).first().locator('[data-quota]');
    const showsAfterReload = async (options: Record<string, string>, pattern: RegExp) => {
      await world.root.setOptions(options);
      await page.reload();
      await expect.poll(() => costCell.innerText()).toMatch(pattern);
    };
    await showsAfterReload({ 'general_setting.quota_display_type': 'TOKENS' }, new RegExp(`^${chargedQuota}$`));
    await showsAfterReload({ 'general_setting.quota_display_type': 'CNY', USDExchangeRate: '7' }, /^¥0\.0000\d+$/);
    await showsAfterReload(
      { 'general_setting.quota_display_type': 'CUSTOM', 'general_setting.custom_currency_symbol': '€', 'general_setting.custom_currency_exchange_rate': '0.9' },
      /^€0\.0000\d+$/,
    );
    await showsAfterReload({ 'general_setting.quota_display_type': 'USD', DisplayInCurrencyEnabled: 'false' }, new RegExp(`^${chargedQuota}$`));
    await showsAfterReload({ DisplayInCurrencyEnabled: 'true' }, tinyDollars);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe.each<Language>(['zh'])('the display type in the settings (%s)', (language) => {
  const settings = language === 'zh' ? zhSettings : enSettings;

  it('is chosen in the operation settings and used on the next page', async () => {
    const { page, context, consoleErrors } = await world.open('/setting?tab=operation', { language, width: 1440 });
    const general = page.getByTestId('section-general');
    const displayType = general.getByLabel(settings.fields['general_setting.quota_display_type'], { exact: true });
    await displayType.click();
    await page.locator('.ant-select-item-option', { hasText: settings.choices.CNY }).click();
    await page.getByTestId('save-general').click();
    await page.locator('.ant-message-notice', { hasText: settings.messages.saved }).waitFor();
    await saveScreenshot(page, `money-display-setting-${language}`);
    const stored = await world.root.get<Array<{ key: string; value: string }>>('/api/option/');
    expect(stored.data.find((item) => item.key === 'general_setting.quota_display_type')?.value).toBe('CNY');

    await page.goto('/log');
    const costCell = page.locator('tr.ant-table-row', { hasText: seed.model }).first().locator('[data-quota]');
    await expect.poll(() => costCell.innerText()).toMatch(/^¥0\.0000\d+$/);
    await world.root.setOptions({ 'general_setting.quota_display_type': 'USD' });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe.each<Language>(['en'])('dashboard latency (%s)', (language) => {
  it('reads the per-channel latency percentiles in milliseconds', async () => {
    const { page, context, consoleErrors } = await world.open('/detail', { language, width: 1440 });
    const stats = page.getByTestId('channel-stats').locator('tr.ant-table-row').first();
    const unit = language === 'zh' ? '毫秒' : 'ms';
    await expect.poll(() => stats.innerText()).toMatch(new RegExp(`≤ [\\d,]+ ${unit}`));
    await saveScreenshot(page, `dashboard-latency-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

/** The tables whose last column holds the row's actions (or, on the logs, its details). */
const tables = [
  { name: 'tokens', path: '/token', row: tokenName },
  { name: 'channels', path: '/channel', row: seed.channel },
  { name: 'logs', path: '/log', row: seed.model },
  { name: 'users', path: '/user', row: userName },
  { name: 'redemptions', path: '/redemption', row: 'e2e-display-code' },
];

async function lastCellBox(page: Page, rowText: string) {
  const cell = page.locator('tr.ant-table-row', { hasText: rowText }).first().locator('td').last();
  await cell.waitFor();
  return { box: await cell.boundingBox(), className: (await cell.getAttribute('class')) ?? '' };
}

describe.each<Language>(['zh'])('layout (%s)', (language) => {
  it.each(['light', 'dark'] as const)('pins the action columns in view at 1440 px and keeps the side menu in place (%s theme)', async (theme) => {
    const { page, context, consoleErrors } = await world.open('/token', { language, theme, width: 1440 });
    for (const table of tables) {
      await navigateInApp(page, table.path);
      const { box, className } = await lastCellBox(page, table.row);
      expect(className, table.name).toMatch(/ant-table-cell-fix/);
      expect((box?.x ?? 0) + (box?.width ?? 0), table.name).toBeLessThanOrEqual(1440);
      await saveScreenshot(page, `layout-${table.name}-${language}-${theme}-1440`);
    }
    // A long page scrolled to its end: the side menu is still at the top of the viewport.
    await navigateInApp(page, '/setting?tab=operation');
    await page.getByTestId('side-menu').waitFor();
    await page.waitForFunction(() => document.documentElement.scrollHeight > window.innerHeight * 2);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    // Right below the 64 px top bar (a menu that scrolled away would be far above).
    const menuTop = await page.getByTestId('side-bar').evaluate((element) => element.getBoundingClientRect().top);
    expect(menuTop).toBe(64);
    // Not saveScreenshot, which scrolls back to the top first.
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, `layout-sidebar-scrolled-${language}-${theme}.png`), animations: 'disabled' });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('shows the key columns and the actions on a 390 px phone, and the logs title in full', async () => {
    const { page, context, consoleErrors } = await world.open('/token', { language, width: 390 });
    for (const table of tables) {
      await navigateInApp(page, table.path);
      const { box } = await lastCellBox(page, table.row);
      expect((box?.x ?? 0) + (box?.width ?? 0), table.name).toBeLessThanOrEqual(390);
      expect(box?.x ?? 0, table.name).toBeGreaterThan(60);
      await saveScreenshot(page, `layout-${table.name}-${language}-390`);
    }
    await navigateInApp(page, '/log');
    const title = page.locator('.ant-card-head-title').first();
    await expect.poll(() => title.innerText()).toBe(locales[language].logs.title);
    expect((await title.boundingBox())?.width ?? 0).toBeGreaterThan(30);
    await page.getByTestId('log-stats').waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe.each<Language>(['en'])('token key dialog (%s)', (language) => {
  const text = locales[language];

  it.each([1440, 390])('shows a new key once with a copy button, and View opens it in the dialog (%i px)', async (width) => {
    const { page, context, consoleErrors } = await world.open('/token', { language, width });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = `e2e-key-${language}-${width}`;
    await page.getByRole('button', { name: buttonName(text.tokens.toolbar.add) }).click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByPlaceholder(text.tokens.form.namePlaceholder).fill(name);
    await drawer.getByRole('button', { name: buttonName(text.tokens.drawer.submit) }).click();
    const created = page.getByRole('dialog').filter({ hasText: localePattern(text.tokens.keyDialog.createdTitle) });
    const key = await created.getByRole('textbox').inputValue();
    expect(key).toMatch(/^sk-\w{16,}$/);
    await created.getByRole('button', { name: buttonName(text.tokens.actions.copy) }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await saveScreenshot(page, `token-key-created-${language}-${width}`);
    await created
      .locator('.ant-modal-footer')
      .getByRole('button', { name: buttonName(text.tokens.keyDialog.close) })
      .click();
    await created.waitFor({ state: 'hidden' });

    const row = page.locator('tr.ant-table-row', { hasText: name });
    await row.getByRole('button', { name: buttonName(text.tokens.actions.viewKey) }).click();
    const viewed = page.getByRole('dialog').filter({ hasText: localePattern(text.tokens.keyDialog.viewTitle) });
    await expect.poll(() => viewed.getByRole('textbox').inputValue()).toBe(key);
    await saveScreenshot(page, `token-key-view-${language}-${width}`);
    // The row's actions end with the red Delete.
    const labels = await row.getByTestId('row-actions').getByRole('button').allInnerTexts();
    expect(labels.at(-1)?.replace(/\s/g, '')).toBe(text.tokens.actions.delete.replace(/\s/g, ''));
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
