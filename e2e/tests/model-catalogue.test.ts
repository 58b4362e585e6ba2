import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
});

afterAll(() => closeFileServer(server));

/** The open antd dropdown's option with this text (closed dropdowns stay in the page, hidden). */
function visibleOption(page: Page, text: string): Locator {
  return page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: text }).first();
}

/** The table row (within `scope`) that shows `name`; the inner locator is matched inside each row. */
const rowOf = (scope: Page | Locator, name: string) => scope.locator('tr', { has: ('page' in scope ? scope.page() : scope).getByText(name, { exact: true }) });

describe.each<Language>(['en'])('the model catalogue and the richer pricing page (%s)', (language: Language) => {
  const catalogue = localeText('model-catalogue', language);
  const pricing = localeText('pricing', language);
  const common = localeText('common', language);
  // Names of this language's run, so the two runs on one server do not see each other's models.
  const sonnet = `claude-3-5-sonnet-${language}`;
  const deepseek = `deepseek-chat-${language}`;
  const house = `house-model-${language}`;
  const tag = `e2e-fast-${language}`;

  beforeAll(async () => {
    const ratios = (await root.get<Array<{ key: string; value: string }>>('/api/option/')).data.find((option) => option.key === 'ModelRatio')?.value ?? '{}';
    await root.setOptions({ ModelRatio: JSON.stringify({ ...JSON.parse(ratios), [sonnet]: 1.5, [deepseek]: 0.5, [house]: 1 }) });
    expect((await root.post('/api/channel/', { type: 14, name: `claude-${language}`, key: 'sk-ant', models: sonnet, group: 'default' })).success).toBe(true);
    expect(
      (await root.post('/api/channel/', { type: 1, name: `mixed-${language}`, key: 'sk-mixed', models: `${deepseek},${house}`, group: 'default' })).success,
    ).toBe(true);
  });

  it('syncs the channels’ models, edits a model’s vendor and tags, and the pricing page shows and filters them', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, 'root', '123456', '/models');
    await page.getByTestId('side-menu').getByText(common('menu.models'), { exact: true }).waitFor();

    // Sync: the channels' models appear with the vendor their names suggest (DeepSeek and Anthropic,
    // created by the first run on this server).
    const vendorsBefore = (await root.get<{ total: number }>('/api/vendors/')).data.total;
    await page
      .getByRole('heading', { name: catalogue('title') })
      .or(page.getByText(catalogue('title'), { exact: true }))
      .first()
      .waitFor();
    await saveScreenshot(page, `model-catalogue-empty-${language}`);
    await page.getByRole('button', { name: catalogue('toolbar.sync') }).click();
    await page
      .getByText(catalogue('messages.synced', { models: 3, vendors: 2 - vendorsBefore, skipped: 0 }))
      .first()
      .waitFor();
    await rowOf(page, deepseek).getByText('DeepSeek', { exact: true }).waitFor();
    await rowOf(page, sonnet).getByText('Anthropic', { exact: true }).waitFor();
    await rowOf(page, house).getByText(catalogue('noVendor'), { exact: true }).waitFor();
    await saveScreenshot(page, `model-catalogue-synced-${language}`);

    // Edit the unknown model: vendor DeepSeek, one tag.
    await rowOf(page, house)
      .getByRole('button', { name: catalogue('actions.edit') })
      .click();
    const drawer = page.getByRole('dialog');
    await expect.poll(() => drawer.getByLabel(catalogue('form.name'), { exact: true }).inputValue()).toBe(house);
    await drawer.getByLabel(catalogue('form.vendor'), { exact: true }).click();
    await visibleOption(page, 'DeepSeek').click();
    await drawer.locator('.ant-select-content[title="DeepSeek"]').waitFor();
    await drawer.getByLabel(catalogue('form.tags'), { exact: true }).fill(tag);
    await page.keyboard.press('Enter');
    await drawer.locator('.ant-select-selection-item', { hasText: tag }).waitFor();
    await saveScreenshot(page, `model-catalogue-edit-${language}`);
    await drawer.getByRole('button', { name: catalogue('drawer.submit') }).click();
    await page.getByText(catalogue('messages.updated')).first().waitFor();
    await rowOf(page, house).getByText('DeepSeek', { exact: true }).waitFor();
    await rowOf(page, house).getByText(tag, { exact: true }).waitFor();
    const saved = (
      await root.get<{ items: Array<{ model_name: string; tags: string; vendor_id: number; sync_official: number }> }>(`/api/models/search?keyword=${house}`)
    ).data.items[0];
    expect(saved).toMatchObject({ model_name: house, tags: tag });
    expect(saved?.vendor_id).toBeGreaterThan(0);

    // The vendors tab counts the models.
    await page.getByRole('tab', { name: catalogue('tabs.vendors') }).click();
    const vendorPanel = page.getByRole('tabpanel', { name: catalogue('tabs.vendors') });
    await vendorPanel.getByRole('columnheader', { name: catalogue('columns.modelCount') }).waitFor();
    await rowOf(vendorPanel, 'DeepSeek').waitFor();
    await page.getByRole('tab', { name: catalogue('tabs.models') }).click();

    // A second sync leaves the edit alone.
    await page.getByRole('button', { name: catalogue('toolbar.sync') }).click();
    await page
      .getByText(catalogue('messages.synced', { models: 0, vendors: 0, skipped: 0 }))
      .first()
      .waitFor();
    await rowOf(page, house).getByText(tag, { exact: true }).waitFor();
    expect((await root.get<{ tags: string }>(`/api/models/${(saved as unknown as { id: number }).id}`)).data.tags).toBe(tag);

    // The pricing page: vendor, tags and endpoints per model, filtered by vendor and by tag.
    await page.goto(`${server.url}/pricing`);
    const table = page.locator('.ant-table');
    await page.getByRole('columnheader', { name: pricing('columns.vendor') }).waitFor();
    await rowOf(table, house).getByText('DeepSeek', { exact: true }).waitFor();
    await rowOf(table, house).getByText(tag, { exact: true }).waitFor();
    await rowOf(table, sonnet).getByText('anthropic', { exact: true }).waitFor();
    await rowOf(table, sonnet).getByText('Anthropic', { exact: true }).waitFor();
    await saveScreenshot(page, `pricing-catalogue-${language}`);

    await page.getByTestId('pricing-tag-filter').click();
    await visibleOption(page, tag).click();
    await expect.poll(() => rowOf(table, sonnet).count()).toBe(0);
    await rowOf(table, house).waitFor();
    expect(await rowOf(table, deepseek).count()).toBe(0);
    // Filters reset with the page.
    await page.reload();
    await rowOf(table, sonnet).waitFor();

    await page.getByTestId('pricing-vendor-filter').click();
    await visibleOption(page, 'Anthropic').click();
    await expect.poll(() => rowOf(table, house).count()).toBe(0);
    await rowOf(table, sonnet).waitFor();
    expect(await rowOf(table, deepseek).count()).toBe(0);
    await saveScreenshot(page, `pricing-vendor-filter-${language}`);
    await page.reload();
    await rowOf(table, sonnet).waitFor();
    await page.getByTestId('pricing-vendor-filter').click();
    await visibleOption(page, 'DeepSeek').click();
    await rowOf(table, deepseek).waitFor();
    await rowOf(table, house).waitFor();
    expect(await rowOf(table, sonnet).count()).toBe(0);

    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
