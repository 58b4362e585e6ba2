import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatQuotaAmount, quotaDisplayOf } from '../../../packages/web/src/lib/quota-display.ts';
import { locales } from './locales.ts';
import { type Language, saveScreenshot, saveScreenshotsInBothThemes } from '../../support/browser.ts';
import { buttonName, createWorld, localePattern, waitForToast, type OperationsWorld } from './operations-world.ts';

let world: OperationsWorld;
/** The wallet shows raw quota, grouped, as DisplayInCurrencyEnabled off asks. */
const rawQuota = quotaDisplayOf({ quota_per_unit: 500_000, display_in_currency: false } as Parameters<typeof quotaDisplayOf>[0]);

beforeAll(async () => {
  world = await createWorld();
  // Raw quota units on screen, so the cost of one request is visible to the unit.
  await world.root.setOptions({ DisplayInCurrencyEnabled: 'false' });
});

afterAll(async () => {
  await world?.close();
});

async function rootQuota(): Promise<number> {
  const self = await world.root.get<{ quota: number }>('/api/user/self');
  return self.data.quota;
}

describe.each<Language>(['zh'])('operations journey (%s)', (language) => {
  const text = locales[language];
  const channelName = `e2e-channel-${language}`;
  const tokenName = `e2e-token-${language}`;
  const codeName = `e2e-code-${language}`;

  it('creates a channel in the editor, tests it and finds it by search', async () => {
    const { page, context, consoleErrors } = await world.open('/channel', { language });
    await page.getByRole('button', { name: buttonName(text.channels.toolbar.add) }).click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByPlaceholder(text.channels.form.namePlaceholder).fill(channelName);
    await drawer.getByLabel(text.channels.form.proxy).fill(world.upstream.baseUrl);
    const custom = drawer.getByPlaceholder(text.channels.form.customModel);
    await custom.fill('gpt-4o-mini');
    await custom.press('Enter');
    await drawer.getByPlaceholder(text.channels.form.keyPlaceholder).fill(`sk-e2e-${language}`);
    await saveScreenshotsInBothThemes(page, `ops-channel-editor-${language}`);
    await drawer.getByRole('button', { name: buttonName(text.channels.drawer.submit) }).click();
    await waitForToast(page, text.channels.messages.created);

    const row = page.locator('tr.ant-table-row', { hasText: channelName });
    await row.waitFor();
    await row.getByRole('button', { name: buttonName(text.channels.actions.test) }).click();
    await waitForToast(page, localePattern(text.channels.messages.tested));
    // The test wrote a response time, shown in seconds instead of "not tested".
    await row.getByText(localePattern(text.channels.responseTime.seconds)).waitFor();
    expect(world.upstream.requests.some((request) => request.key === `sk-e2e-${language}`)).toBe(true);

    const search = page.getByPlaceholder(text.channels.search.keyword);
    await search.fill('no-such-channel');
    await search.press('Enter');
    await page.getByText(text.channels.empty).waitFor();
    await search.fill(channelName);
    await search.press('Enter');
    await row.waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('creates a token and finds it by name', async () => {
    const { page, context, consoleErrors } = await world.open('/token', { language });
    await page.getByText(text.tokens.warning).waitFor();
    await page.getByRole('button', { name: buttonName(text.tokens.toolbar.add) }).click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByPlaceholder(text.tokens.form.namePlaceholder).fill(tokenName);
    await saveScreenshotsInBothThemes(page, `ops-token-drawer-${language}`);
    await drawer.getByRole('button', { name: buttonName(text.tokens.drawer.submit) }).click();
    await waitForToast(page, text.tokens.messages.created);
    // The new key is shown once, in a dialog with a copy button.
    const keyDialog = page.getByRole('dialog').filter({ hasText: localePattern(text.tokens.keyDialog.createdTitle) });
    const shownKey = await keyDialog.getByRole('textbox').inputValue();
    expect(shownKey).toMatch(/^sk-\w{16,}$/);
    await saveScreenshotsInBothThemes(page, `ops-token-created-key-${language}`);
    await keyDialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: buttonName(text.tokens.keyDialog.close) })
      .click();
    await keyDialog.waitFor({ state: 'hidden' });
    await page.locator('tr.ant-table-row', { hasText: tokenName }).waitFor();

    const search = page.getByPlaceholder(text.tokens.search.name);
    await search.fill('no-such-token');
    await search.press('Enter');
    await page.getByText(text.tokens.empty).waitFor();
    await search.fill(tokenName);
    await search.press('Enter');
    await page.locator('tr.ant-table-row', { hasText: tokenName }).waitFor();
    const tokens = await world.root.get<Array<{ name: string; key: string }>>('/api/token/search?keyword=' + tokenName);
    expect(tokens.data.map((token) => token.name)).toContain(tokenName);
    expect(tokens.data.map((token) => `sk-${token.key}`)).toContain(shownKey);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('creates redemption codes, downloads them, redeems one in the wallet and sees the balance grow', async () => {
    const { page, context, consoleErrors } = await world.open('/redemption', { language });
    await page.getByRole('button', { name: buttonName(text.redemptions.toolbar.add) }).click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByPlaceholder(text.redemptions.form.namePlaceholder).fill(codeName);
    await drawer.getByRole('button', { name: '$1', exact: true }).click();
    await drawer.getByLabel(text.redemptions.form.count).fill('2');
    await saveScreenshotsInBothThemes(page, `ops-redemption-drawer-${language}`);
    await drawer.getByRole('button', { name: buttonName(text.redemptions.drawer.submit) }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: localePattern(text.redemptions.created.title) });
    const codes = (await dialog.locator('textarea').inputValue()).trim().split('\n');
    expect(codes).toHaveLength(2);
    for (const created of codes) expect(created).toMatch(/^\w{16,}$/);
    const code = codes[0] ?? '';
    await saveScreenshotsInBothThemes(page, `ops-redemption-created-${language}`);
    // The dialog offers the codes as <name>.txt, one per line.
    const download = page.waitForEvent('download');
    await dialog
      .locator('.ant-btn')
      .filter({ hasText: buttonName(text.redemptions.created.download) })
      .click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${codeName}.txt`);
    expect((await readFile(await file.path(), 'utf8')).split('\n').filter(Boolean)).toEqual(codes);
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('tr.ant-table-row', { hasText: codeName }).count()).toBe(2);

    const before = await rootQuota();
    await page.goto('/topup');
    await page.getByText(formatQuotaAmount(before, rawQuota), { exact: true }).waitFor();
    const input = page.getByPlaceholder(text.wallet.redeem.placeholder);
    await input.fill(code);
    await input.press('Enter');
    await waitForToast(page, localePattern(text.wallet.redeem.success));
    expect(await rootQuota()).toBe(before + 500_000);
    await page.getByText(formatQuotaAmount(before + 500_000, rawQuota), { exact: true }).waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('chats in the playground, with the streamed answer appearing', async () => {
    world.upstream.usage = { prompt: 1000, completion: 500 };
    const { page, context, consoleErrors } = await world.open('/playground', { language });
    const input = page.getByPlaceholder(text.playground.composer.placeholder);
    await input.fill('Say hello');
    await input.press('Enter');
    const answer = page.locator('[data-role="assistant"][data-status="complete"]');
    await answer.getByText('Hello from the fake upstream.').waitFor();
    await saveScreenshot(page, `ops-playground-answer-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('shows the consumption in the log with the right cost, and filters it', async () => {
    // gpt-4o-mini: model ratio 0.075, completion ratio 4; (1000 + 500 × 4) × 0.075 × group ratio 1 = 225.
    const expected = 225;
    // Usage logs are written in batches after the answer ends, so the row may land a moment later.
    const loggedQuota = async () => {
      const logs = await world.root.get<{ items: Array<{ model_name: string; quota: number; type: number }> }>(
        '/api/log/?type=2&p=1&page_size=10&model_name=gpt-4o-mini',
      );
      return logs.data.items[0]?.quota;
    };
    await expect.poll(loggedQuota, { timeout: 10_000 }).toBe(expected);

    const { page, context, consoleErrors } = await world.open('/log', { language });
    const row = page.locator('tr.ant-table-row', { hasText: 'gpt-4o-mini' }).first();
    await row.getByRole('cell', { name: String(expected), exact: true }).waitFor();
    await row.locator('.ant-table-row-expand-icon').click();
    await page.getByText(text.logs.details.billing).waitFor();
    await saveScreenshotsInBothThemes(page, `ops-log-billing-${language}`);

    const model = page.getByPlaceholder(text.logs.filters.model);
    await model.fill('no-such-model');
    await model.press('Enter');
    await page.getByText(text.logs.empty).waitFor();
    await model.fill('gpt-4o-mini');
    await model.press('Enter');
    await row.waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
