import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigateInApp, saveScreenshot, saveScreenshotsInBothThemes, type Language, type ThemeMode } from '../../support/browser.ts';
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

// Each language in one theme: the other pairs add no coverage the language smoke pass (language-smoke.test.ts) lacks.
const variants: [Language, ThemeMode][] = [
  ['zh', 'light'],
  ['en', 'dark'],
];

describe('operations screens', () => {
  it.each(variants)(
    'renders every screen without console errors (%s, %s theme)',
    async (language, theme) => {
      const { page, context, consoleErrors } = await world.open('/token', { language, theme });
      // Through the console's router, as its menu does: one page load per test, not one per screen.
      for (const screen of screens) {
        await navigateInApp(page, screen.path);
        await screen.ready(page, locales[language]);
        await saveScreenshot(page, `ops-${screen.name}-${language}-${theme}`);
      }
      expect(consoleErrors).toEqual([]);
      await context.close();
    },
    120_000,
  );

  it('keeps the tables usable on a phone-sized screen', async () => {
    const { page, context, consoleErrors } = await world.open('/token', { language: 'zh', width: 390 });
    for (const screen of screens.filter((candidate) => ['channels', 'tokens', 'logs', 'playground'].includes(candidate.name))) {
      await navigateInApp(page, screen.path);
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
    await page.route('**/api/data/?*', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: true, message: '', data: rows }) }),
    );
    await navigateInApp(page, '/detail');
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

describe.each<Language>(['en'])('failed loads (%s)', (language) => {
  it('shows an error instead of an empty table', async () => {
    // Opened on a page that loads none of these lists, so each list below is asked for fresh (the console
    // keeps an answer for 10 s) when its screen is opened through the router.
    const { page, context } = await world.open('/about', { language });
    for (const list of failingLists) {
      await page.route(list.api, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'e2e-broken-list', data: null }) }),
      );
      await navigateInApp(page, list.path);
      const prefix = list.message(locales[language]).split('{{')[0] ?? '';
      await page.getByText(`${prefix}e2e-broken-list`).first().waitFor();
      await page.unrouteAll();
    }
    await context.close();
  }, 120_000);
});

describe.each<Language>(['zh'])('search and filters (%s)', (language) => {
  it('searches codes and pricing, filters drawing and task lists', async () => {
    const text = locales[language];
    const { page, context, consoleErrors } = await world.open('/redemption', { language });
    const codeSearch = page.getByPlaceholder(text.redemptions.search);
    await codeSearch.fill('no-such-code');
    await codeSearch.press('Enter');
    await page.getByText(text.redemptions.empty).waitFor();
    await codeSearch.fill(`${seed.code}-wallet`);
    await codeSearch.press('Enter');
    await page.locator('tr.ant-table-row', { hasText: `${seed.code}-wallet` }).waitFor();
    expect(await page.locator('tr.ant-table-row').count()).toBe(1);

    await navigateInApp(page, '/pricing');
    const pricingSearch = page.getByPlaceholder(text.pricing.search);
    await pricingSearch.fill('g4om');
    await page.locator('tr.ant-table-row', { hasText: seed.model }).waitFor();
    await pricingSearch.fill('zzz-no-model');
    await page.getByText(text.pricing.empty).waitFor();

    for (const [path, placeholder, empty] of [
      ['/midjourney', text.drawing.filters.taskId, text.drawing.empty],
      ['/task', text.tasks.filters.taskId, text.tasks.empty],
    ] as const) {
      await navigateInApp(page, path);
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

/** A finished drawing and a finished music task, answered the way the list endpoints answer them. */
function routeTaskLists(page: Page) {
  const now = Date.now();
  // A small picture inline, so the viewer has something to show without any outside request.
  const picture = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#1677ff"/><circle cx="128" cy="128" r="64" fill="#fadb14"/></svg>')}`;
  const drawing = {
    id: 1,
    mj_id: 'mj-e2e-0001',
    action: 'IMAGINE',
    code: 1,
    status: 'SUCCESS',
    progress: '100%',
    image_url: picture,
    prompt: '一座黄昏时的灯塔',
    prompt_en: 'a lighthouse at dusk',
    description: '',
    fail_reason: '',
    channel_id: 1,
    submit_time: now - 42_000,
    start_time: now - 40_000,
    finish_time: now,
  };
  const seconds = Math.floor(now / 1000);
  const task = {
    id: 1,
    task_id: 'task-e2e-0001',
    platform: 'suno',
    action: 'MUSIC',
    status: 'SUCCESS',
    progress: '100%',
    fail_reason: '',
    channel_id: 1,
    user_id: 1,
    quota: 1000,
    submit_time: seconds - 90,
    start_time: seconds - 85,
    finish_time: seconds,
    data: [{ id: 'clip-e2e', title: 'e2e song', audio_url: 'https://cdn.example/clip-e2e.mp3' }],
  };
  const page1 = (item: unknown) => JSON.stringify({ success: true, message: '', data: { items: [item], total: 1, page: 1, page_size: 10 } });
  return Promise.all([
    page.route('**/api/mj/?*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: page1(drawing) })),
    page.route('**/api/task/?*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: page1(task) })),
  ]);
}

describe.each<Language>(['en'])('drawing and task details (%s)', (language) => {
  const text = locales[language];

  it('opens the image viewer, the prompt and the full JSON of a task', async () => {
    const { page, context, consoleErrors } = await world.open('/token', { language });
    await routeTaskLists(page);

    await navigateInApp(page, '/midjourney');
    const drawing = page.locator('tr.ant-table-row', { hasText: 'mj-e2e-0001' });
    await drawing.getByText(text.drawing.statuses.SUCCESS, { exact: true }).waitFor();
    await drawing.locator('.ant-image').click();
    const viewer = page.locator('.ant-image-preview');
    await viewer.locator('img').waitFor();
    await saveScreenshotsInBothThemes(page, `ops-drawing-image-${language}`);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    await drawing.getByRole('button', { name: 'a lighthouse at dusk' }).click();
    await page.getByRole('dialog').getByText('a lighthouse at dusk').waitFor();
    await page.keyboard.press('Escape');

    await navigateInApp(page, '/task');
    const task = page.locator('tr.ant-table-row', { hasText: 'task-e2e-0001' });
    await task.getByText(text.tasks.statuses.SUCCESS, { exact: true }).waitFor();
    await task.getByRole('button', { name: 'task-e2e-0001' }).click();
    const details = page.getByRole('dialog').filter({ hasText: text.tasks.details.replace('{{id}}', 'task-e2e-0001') });
    const json = details.locator('pre');
    await json.getByText('"title": "e2e song"', { exact: false }).waitFor();
    const shown = (await json.textContent()) ?? '';
    expect(JSON.parse(shown)).toMatchObject({ task_id: 'task-e2e-0001', platform: 'suno', data: [{ id: 'clip-e2e' }] });
    // Its copy button copies that JSON.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // The clipboard is the browser's, shared with the other language's page; a page without focus
    // cannot write it (seen once: this page read the other one's JSON). Focus first, click until it lands.
    await page.bringToFront();
    await expect
      .poll(async () => {
        await details.locator('.ant-typography-copy').click();
        return page.evaluate(() => navigator.clipboard.readText());
      })
      .toBe(shown);
    await saveScreenshotsInBothThemes(page, `ops-task-json-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe('log filters, user info and retries', () => {
  let broken = 0;
  let working = 0;

  beforeAll(async () => {
    // One failing channel above a working one for gpt-4o, and one retry allowed: the request fails
    // over from the first to the second, and its log names both in that order.
    await world.root.setOptions({ RetryTimes: '1' });
    const create = async (name: string, key: string, priority: number) => {
      const answer = await world.root.post('/api/channel/', {
        mode: 'single',
        channel: { type: 1, name, key, base_url: world.upstream.baseUrl, models: 'gpt-4o', group: 'default', priority },
      });
      if (!answer.success) throw new Error(`creating ${name} failed: ${answer.message}`);
    };
    await create('e2e-retry-broken', 'sk-retry-broken', 10);
    await create('e2e-retry-working', 'sk-retry-working', 0);
    world.upstream.behave('sk-retry-broken', 'status-500');
    const ids = (await world.root.get<Array<{ id: number; name: string }>>('/api/channel/search?keyword=e2e-retry')).data;
    broken = ids.find((channel) => channel.name === 'e2e-retry-broken')?.id ?? 0;
    working = ids.find((channel) => channel.name === 'e2e-retry-working')?.id ?? 0;
    const chat = (await world.root.post('/pg/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'retry please' }],
      stream: false,
    })) as unknown as { choices?: unknown[] };
    if (!Array.isArray(chat.choices)) throw new Error(`the retried request failed: ${JSON.stringify(chat)}`);
  });

  /** The channels the retried request went through, once its log is written (logs are written in batches). */
  const loggedChain = async () => {
    const logs = await world.root.get<{ items: Array<{ other: string }> }>('/api/log/?type=2&p=1&page_size=10&model_name=gpt-4o');
    return (JSON.parse(logs.data.items[0]?.other || '{}') as { admin_info?: { use_channel?: number[] } }).admin_info?.use_channel;
  };

  describe.each<Language>(['zh'])('%s', (language) => {
    const text = locales[language].logs;

    it('filters by type, shows who made a request and the channels a request went through', async () => {
      await expect.poll(loggedChain, { timeout: 10_000 }).toEqual([broken, working]);
      const { page, context, consoleErrors } = await world.open('/log', { language });
      const rows = page.locator('tr.ant-table-row');
      await rows.filter({ hasText: seed.model }).first().waitFor();

      // The administrator's user info, from the username in a row.
      await rows.filter({ hasText: seed.model }).first().getByRole('button', { name: 'root', exact: true }).click();
      const popup = page.locator('.ant-popover:visible', { hasText: text.user.title });
      await popup.getByText(text.user.requestCount).waitFor();
      await popup.getByText('root', { exact: true }).waitFor();
      await page.locator('.ant-card-head-title').click();
      await popup.waitFor({ state: 'hidden' });

      // The retry chain: in its column and, expanded, in the details, failing channel first.
      const chain = `${broken} → ${working}`;
      const retried = rows.filter({ hasText: chain });
      await retried.locator('.ant-table-row-expand-icon').click();
      const details = page.locator('tr.ant-table-expanded-row:visible');
      await details.locator('.ant-descriptions-row', { hasText: text.details.retryChain }).getByText(chain, { exact: true }).waitFor();
      await saveScreenshotsInBothThemes(page, `ops-log-retry-${language}`);

      // Only top-ups: the redeemed code's row stays, the consumption rows go.
      const topUps = page.waitForRequest((request) => request.url().includes('/api/log/?') && request.url().includes('type=1'));
      await page.getByLabel(text.filters.type).click();
      await page.locator('.ant-select-item-option', { hasText: new RegExp(`^${text.types['1']}$`) }).click();
      await topUps;
      await rows.filter({ hasText: seed.model }).first().waitFor({ state: 'detached' });
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      expect(await rows.filter({ hasNot: page.getByText(text.types['1'], { exact: true }) }).count()).toBe(0);
      expect(consoleErrors).toEqual([]);
      await context.close();
    });
  });
});
