import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;
const quotaPerUnit = 500_000;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
  await root.setOptions({ QuotaPerUnit: String(quotaPerUnit) });
});

afterAll(() => closeFileServer(server));

/** Picks an option of the antd select marked `testId` by its visible label. */
async function choose(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-item-option', { hasText: label }).first().click();
}

describe.each<Language>(['zh'])('spending budgets and alerts in the console (%s)', (language: Language) => {
  const tokens = localeText('tokens', language);
  const settings = localeText('settings', language);
  const users = localeText('users', language);
  const common = localeText('common', language);

  it('sets a token budget in the drawer, shows its use in the list, lets an administrator budget the user, and saves alert settings', async () => {
    const name = `bg${language}${Date.now() % 100000}`;
    expect((await root.post('/api/user/', { username: name, password: 'password123', display_name: name })).success).toBe(true);
    const user = await loginApi(server.url, name, 'password123');
    expect((await user.post('/api/token/', { name: `key-${language}`, remain_quota: 10 * quotaPerUnit, expired_time: -1 })).success).toBe(true);

    // The token drawer: a daily budget of $10, saved on its own button.
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, name, 'password123', '/token');
    const row = page.locator('tr', { has: page.getByText(`key-${language}`, { exact: true }) });
    await page.getByRole('columnheader', { name: tokens('columns.budget') }).waitFor();
    await row.getByText(common('budget.none')).waitFor();
    await row.getByRole('button', { name: tokens('actions.edit') }).click();
    const section = page.getByTestId('token-budget');
    await section.waitFor();
    await page.getByText(tokens('budget.title'), { exact: true }).waitFor();
    await choose(page, 'token-budget-period', common('budget.periods.day'));
    await section.getByRole('button', { name: '$10', exact: true }).click();
    await saveScreenshot(page, `token-budget-${language}`);
    await page.getByTestId('token-budget-save').click();
    await page.getByText(tokens('budget.saved')).first().waitFor();
    const [saved] = (await user.get<Array<{ budget_quota: number; budget_period: string; period_used: number }>>('/api/budget/tokens')).data;
    expect(saved).toMatchObject({ budget_quota: 10 * quotaPerUnit, budget_period: 'day', period_used: 0 });
    await page.keyboard.press('Escape');
    // The list shows the period and the use against the budget.
    await row.getByText(common('budget.periods.day'), { exact: false }).waitFor();

    // User management: the administrator gives the user a weekly budget of $50.
    const admin = await openConsole(browser, server.url, { language });
    await loginAs(admin.page, 'root', '123456', '/user');
    const userRow = admin.page.getByTestId('users-table').locator('tr', { has: admin.page.getByText(name, { exact: true }) });
    await userRow.getByRole('button', { name: common('actions.edit') }).click();
    const userBudget = admin.page.getByTestId('user-budget');
    await userBudget.waitFor();
    await admin.page.getByText(users('budget.title'), { exact: true }).waitFor();
    await choose(admin.page, 'user-budget-period', common('budget.periods.week'));
    await userBudget.getByRole('button', { name: '$50', exact: true }).click();
    await admin.page.getByTestId('user-budget-save').click();
    await admin.page.getByText(users('budget.saved')).first().waitFor();
    expect(admin.consoleErrors).toEqual([]);
    await admin.context.close();

    // The user's page: their budget, and the alert threshold and webhook.
    await page.goto(`${server.url}/setting`);
    const card = page.getByTestId('personal-budget');
    await card.getByText(settings('personal.budget.title')).waitFor();
    await card.getByText(common('budget.periods.week'), { exact: false }).first().waitFor();
    // Off "use the site's threshold": the user's own, $1.
    await card.getByRole('checkbox').click();
    await card.getByRole('button', { name: '$1', exact: true }).click();
    await page.getByTestId('alert-webhook-url').fill('not an address');
    await page.getByTestId('alert-save').click();
    await card.getByText(settings('personal.budget.invalidUrl')).waitFor();
    await page.getByTestId('alert-webhook-url').fill('https://hooks.example.test/switchboard');
    await card.getByLabel(settings('personal.budget.webhookSecret')).fill('s3cret-value');
    await saveScreenshot(page, `personal-budget-${language}`);
    await page.getByTestId('alert-save').click();
    await page.getByText(settings('personal.budget.saved')).first().waitFor();
    await card.getByText(settings('personal.budget.secretSet')).waitFor();
    const self = (await user.get<Record<string, unknown>>('/api/budget/self')).data;
    expect(self).toMatchObject({
      budget_quota: 50 * quotaPerUnit,
      budget_period: 'week',
      quota_warning_threshold: quotaPerUnit,
      own_threshold: true,
      webhook_url: 'https://hooks.example.test/switchboard',
      webhook_secret_set: true,
    });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
