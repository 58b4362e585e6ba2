import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot, type Language, type ThemeMode } from '../../support/browser.ts';
import { locales } from './locales.ts';
import { createWorld, type OperationsWorld } from './operations-world.ts';
import { seed, seedOperations } from './seed.ts';

let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
  await seedOperations(world);
});

afterAll(async () => {
  await world?.close();
});

type Text = (typeof locales)[Language];

/** Each operations screen, and what shows once its data has loaded. */
const screens: Array<{ name: string; path: string; ready: (page: Page, text: Text) => Promise<void> }> = [
  { name: 'channels', path: '/channel', ready: (page) => page.locator('tr.ant-table-row', { hasText: seed.channel }).waitFor() },
  { name: 'tokens', path: '/token', ready: (page) => page.locator('tr.ant-table-row', { hasText: seed.token }).waitFor() },
  { name: 'redemptions', path: '/redemption', ready: (page) => page.locator('tr.ant-table-row', { hasText: seed.code }).first().waitFor() },
  { name: 'wallet', path: '/topup', ready: (page, text) => page.getByText(text.wallet.redeem.title).waitFor() },
  { name: 'logs', path: '/log', ready: (page) => page.locator('tr.ant-table-row', { hasText: seed.model }).first().waitFor() },
  { name: 'drawing', path: '/midjourney', ready: (page, text) => page.getByText(text.drawing.empty).waitFor() },
  { name: 'tasks', path: '/task', ready: (page, text) => page.getByText(text.tasks.empty).waitFor() },
  { name: 'pricing', path: '/pricing', ready: (page) => page.locator('tr.ant-table-row', { hasText: seed.model }).waitFor() },
  { name: 'playground', path: '/playground', ready: (page, text) => page.getByPlaceholder(text.playground.composer.placeholder).waitFor() },
  { name: 'dashboard', path: '/detail', ready: (page, text) => page.getByText(text.dashboard.charts.modelConsumption).waitFor() },
];

const variants = (['zh', 'en'] as const).flatMap((language) => (['light', 'dark'] as const).map((theme) => [language, theme] as [Language, ThemeMode]));

describe('operations screens', () => {
  it.each(variants)('renders every screen without console errors (%s, %s theme)', async (language, theme) => {
    const { page, context, consoleErrors } = await world.open('/token', { language, theme });
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready(page, locales[language]);
      await saveScreenshot(page, `ops-${screen.name}-${language}-${theme}`);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it('keeps the tables usable on a phone-sized screen', async () => {
    const { page, context, consoleErrors } = await world.open('/token', { language: 'zh', width: 390 });
    for (const screen of screens.filter((candidate) => ['channels', 'tokens', 'logs', 'playground'].includes(candidate.name))) {
      await page.goto(screen.path);
      await screen.ready(page, locales.zh);
      await saveScreenshot(page, `ops-${screen.name}-zh-mobile`);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)('draws the dashboard charts from hourly buckets (%s theme)', async (theme) => {
    // The hourly aggregation runs every few minutes; its rows are served here as the endpoint answers them.
    const hour = Math.floor(Date.now() / 3_600_000) * 3600;
    const rows = [
      { username: 'root', model_name: 'gpt-4o-mini', created_at: hour - 7200, token_used: 3000, count: 4, quota: 900 },
      { username: 'alice', model_name: 'claude-3-5-haiku', created_at: hour - 3600, token_used: 1200, count: 2, quota: 2400 },
      { username: 'root', model_name: 'gpt-4o-mini', created_at: hour, token_used: 800, count: 1, quota: 300 },
    ];
    const { page, context, consoleErrors } = await world.open('/token', { language: 'en', theme });
    await page.route('**/api/data/?*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: true, message: '', data: rows }) }));
    await page.goto('/detail');
    await page.getByText(locales.en.dashboard.charts.userConsumption).waitFor();
    await expect.poll(() => page.locator('canvas').count(), { timeout: 10_000 }).toBe(3);
    await page.getByText('7', { exact: true }).waitFor();
    await saveScreenshot(page, `ops-dashboard-charts-en-${theme}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('shows the admin banner when the drawing callback is off', async () => {
    const { page, context } = await world.open('/midjourney', { language: 'en' });
    await page.getByText(locales.en.drawing.callbackOff).waitFor();
    await context.close();
  });
});

/** Every table says so when its list cannot be loaded, with the server's message. */
const failingLists: Array<{ path: string; api: string; message: (text: Text) => string }> = [
  { path: '/channel', api: '**/api/channel/?*', message: (text) => text.channels.loadFailed },
  { path: '/token', api: '**/api/token/?*', message: (text) => text.tokens.loadFailed },
  { path: '/redemption', api: '**/api/redemption/?*', message: (text) => text.redemptions.loadFailed },
  { path: '/log', api: '**/api/log/?*', message: (text) => text.logs.loadFailed },
  { path: '/midjourney', api: '**/api/mj/?*', message: (text) => text.drawing.loadFailed },
  { path: '/task', api: '**/api/task/?*', message: (text) => text.tasks.loadFailed },
  { path: '/pricing', api: '**/api/pricing', message: (text) => text.pricing.loadFailed },
  { path: '/detail', api: '**/api/data/?*', message: (text) => text.dashboard.loadFailed },
];

describe.each(['zh', 'en'] as const)('failed loads (%s)', (language) => {
  it('shows an error instead of an empty table', async () => {
    const { page, context } = await world.open('/token', { language });
    for (const list of failingLists) {
      await page.route(list.api, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'e2e-broken-list', data: null }) }));
      await page.goto(list.path);
      const prefix = list.message(locales[language]).split('{{')[0] ?? '';
      await page.getByText(`${prefix}e2e-broken-list`).first().waitFor();
      await page.unrouteAll();
    }
    await context.close();
  }, 120_000);
});

describe('search and filters', () => {
  it('searches codes and pricing, filters drawing and task lists', async () => {
    const text = locales.zh;
    const { page, context, consoleErrors } = await world.open('/redemption', { language: 'zh' });
    const codeSearch = page.getByPlaceholder(text.redemptions.search);
    await codeSearch.fill('no-such-code');
    await codeSearch.press('Enter');
    await page.getByText(text.redemptions.empty).waitFor();
    await codeSearch.fill(`${seed.code}-wallet`);
    await codeSearch.press('Enter');
    await page.locator('tr.ant-table-row', { hasText: `${seed.code}-wallet` }).waitFor();
    expect(await page.locator('tr.ant-table-row').count()).toBe(1);

    await page.goto('/pricing');
    const pricingSearch = page.getByPlaceholder(text.pricing.search);
    await pricingSearch.fill('g4om');
    await page.locator('tr.ant-table-row', { hasText: seed.model }).waitFor();
    await pricingSearch.fill('zzz-no-model');
    await page.getByText(text.pricing.empty).waitFor();

    for (const [path, placeholder, empty] of [
      ['/midjourney', text.drawing.filters.taskId, text.drawing.empty],
      ['/task', text.tasks.filters.taskId, text.tasks.empty],
    ] as const) {
      await page.goto(path);
      const filter = page.getByPlaceholder(placeholder);
      const request = page.waitForRequest((candidate) => candidate.url().includes('no-such-task'));
      await filter.fill('no-such-task');
      await filter.press('Enter');
      await request;
      await page.getByText(empty).waitFor();
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe('playground failures', () => {
  it('marks the answer as an error with the upstream message when every channel fails', async () => {
    world.upstream.behave('sk-seed', 'status-500');
    const text = locales.en;
    const { page, context } = await world.open('/playground', { language: 'en' });
    const input = page.getByPlaceholder(text.playground.composer.placeholder);
    await input.fill('fail please');
    await input.press('Enter');
    await page.locator('[data-role="assistant"][data-status="error"]').waitFor();
    await saveScreenshot(page, 'ops-playground-error-en');
    await page.getByRole('button', { name: text.playground.composer.clear }).click();
    await page.getByText(text.playground.empty).waitFor();
    world.upstream.behave('sk-seed', 'ok');
    await context.close();
  });
});
