import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMidjourneyProxy } from '../../../packages/server/src/entry/tasks/midjourney/testing/fake-midjourney-proxy.ts';
import { FakeSunoApi } from '../../../packages/server/src/entry/tasks/suno/testing/fake-suno-api.ts';
import { loginApi, type ApiSession } from '../../support/api-session.ts';
import { loginAs, navigateInApp, openConsole, saveScreenshot, type Language } from '../../support/browser.ts';
import { localNetworkAllowed } from '../../support/local-network.ts';
import type { TestServer } from '../../support/server.ts';
import { locales } from '../operations/locales.ts';
import { PollGate } from './poll-gate.ts';
import { closeFileServer, openFileServer } from '../../support/file-server.ts';

/**
 * A Midjourney imagine and a Suno song submitted through Switchboard the way their clients do (plain
 * HTTP with an sk- key), relayed to the local fakes, and watched in the console as the poller moves
 * them on: submitted, in progress, done with an image and a song. The fakes move a task one step per
 * poll and a gate in front of each holds every poll until the test lets it through, so each step is
 * seen on the page however fast the server polls.
 */

const rootPassword = 'e2e-root-password';
const userPassword = 'password123';
const mjSecret = 'e2e-proxy-secret';
const sunoKey = 'e2e-suno-key';

let server: TestServer;
let browser: Browser;
let root: ApiSession;
const midjourney = new FakeMidjourneyProxy(mjSecret);
const suno = new FakeSunoApi(sunoKey);
let mjGate: PollGate;
let sunoGate: PollGate;
const channelIds = { midjourney: 0, suno: 0 };

const expectSuccess = (answer: { success: boolean; message: string }, what: string) => {
  if (!answer.success) throw new Error(`${what} failed: ${answer.message}`);
};

beforeAll(async () => {
  await Promise.all([midjourney.start(), suno.start()]);
  mjGate = new PollGate(midjourney.baseUrl, (method, path) => method === 'POST' && path.endsWith('/mj/task/list-by-condition'));
  sunoGate = new PollGate(suno.baseUrl, (method, path) => method === 'POST' && path === '/suno/fetch');
  await Promise.all([mjGate.start(), sunoGate.start()]);
  // The poller runs every second here (15 s in production); the gates decide when a poll gets an answer.
  ({ server, browser, root } = await openFileServer({ env: { INITIAL_ROOT_PASSWORD: rootPassword, TASK_POLL_INTERVAL_SECONDS: '1' }, rootPassword }));
  await root.setOptions(localNetworkAllowed);
  const create = async (type: number, name: string, key: string, baseUrl: string, models: string) => {
    expectSuccess(
      await root.post('/api/channel/', { mode: 'single', channel: { type, name, key, base_url: baseUrl, models, group: 'default' } }),
      `creating ${name}`,
    );
    const found = await root.get<Array<{ id: number; name: string }>>(`/api/channel/search?keyword=${name}`);
    return found.data.find((channel) => channel.name === name)?.id ?? 0;
  };
  channelIds.midjourney = await create(2, 'e2e-midjourney', mjSecret, mjGate.baseUrl, 'mj_imagine,mj_upscale,mj_variation');
  channelIds.suno = await create(36, 'e2e-suno', sunoKey, sunoGate.baseUrl, 'suno_music,suno_lyrics');
}, 120_000);

afterAll(async () => {
  await Promise.all([mjGate?.stop(), sunoGate?.stop()]);
  await closeFileServer(server);
  await Promise.all([midjourney.stop(), suno.stop()]);
});

/** An ordinary user with a balance and an sk- key, as a midjourney-proxy or Suno client would hold. */
async function userWithKey(username: string): Promise<{ key: string }> {
  expectSuccess(await root.post('/api/user/', { username, password: userPassword, display_name: username }), 'creating the user');
  const codes = await root.post<string[]>('/api/redemption/', { name: `${username}-code`, quota: 5_000_000, count: 1 });
  expectSuccess(codes, 'creating a code');
  const session = await loginApi(server.url, username, userPassword);
  expectSuccess(await session.post('/api/user/topup', { key: codes.data[0] }), 'redeeming the code');
  const tokens = await session.post<Array<{ key: string }>>('/api/token/', {
    name: `${username}-key`,
    remain_quota: 0,
    expired_time: -1,
    unlimited_quota: true,
  });
  expectSuccess(tokens, 'creating the token');
  return { key: `sk-${tokens.data[0]?.key ?? ''}` };
}

async function callAsClient(path: string, headers: Record<string, string>, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Lets one poll of each vendor through once the server has sent it, so every unfinished task moves one
 * step. A pass polls the vendors one after the other: Suno's poll comes once Midjourney's is answered.
 */
async function letOnePollThrough(): Promise<void> {
  for (const gate of [mjGate, sunoGate]) {
    await expect.poll(() => gate.held).toBe(1);
    gate.release();
  }
}

/** Time taken as the pages write it ("3.2 s", "3 秒"). */
const durationPattern = (template: string) => new RegExp(`^${template.replace('{{value}}', '\\d+(\\.\\d+)?')}$`);

/** The cell of `row` under the column headed `title`. */
async function cellUnder(page: Page, row: Locator, title: string): Promise<Locator> {
  const titles = await page.locator('thead th').allTextContents();
  return row.locator('td').nth(titles.indexOf(title));
}

/** What a row's progress bar stands at (antd keeps the percentage in aria-valuenow). */
const progressOf = (row: Locator) => row.locator('[role="progressbar"]').getAttribute('aria-valuenow');

async function expectRow(row: Locator, statusText: string, progress: string): Promise<void> {
  await row.getByText(statusText, { exact: true }).waitFor({ timeout: 15_000 });
  expect(await progressOf(row)).toBe(progress);
}

describe.each<Language>(['en'])('drawing and music tasks through the relays (%s)', (language: Language) => {
  const text = locales[language];
  const prompt = `a lighthouse at dusk ${language}`;
  let client: { key: string };
  let drawingId = '';
  let songId = '';

  beforeAll(async () => {
    client = await userWithKey(`tasks${language}`);
  });

  it('shows a Midjourney imagine and a Suno song progressing to done on the user’s drawing and task pages', async () => {
    const imagine = await callAsClient('/mj/submit/imagine', { Authorization: `Bearer ${client.key}` }, { prompt });
    expect(imagine).toMatchObject({ code: 1 });
    drawingId = String(imagine.result);
    const music = await callAsClient(
      '/suno/submit/music',
      { Authorization: `Bearer ${client.key}` },
      { prompt: '[Verse]\nLights over the sea', title: `Sea ${language}` },
    );
    expect(music).toMatchObject({ code: 'success' });
    songId = String(music.data);

    const drawings = await openConsole(browser, server.url, { language });
    await loginAs(drawings.page, `tasks${language}`, userPassword, '/midjourney');
    const songs = await openConsole(browser, server.url, { language });
    await loginAs(songs.page, `tasks${language}`, userPassword, '/task');
    const drawing = drawings.page.locator('tr.ant-table-row', { hasText: drawingId });
    const song = songs.page.locator('tr.ant-table-row', { hasText: songId });

    // Submitted: charged, waiting for the first poll.
    await expectRow(drawing, text.drawing.statuses.SUBMITTED, '0');
    await expectRow(song, text.tasks.statuses.SUBMITTED, '0');
    await drawing.getByText(text.drawing.actions.IMAGINE, { exact: true }).waitFor();
    await song.getByText(text.tasks.actions.MUSIC, { exact: true }).waitFor();
    // An ordinary user sees neither the channel column nor the administrators' callback banner.
    expect(await drawings.page.getByRole('columnheader', { name: text.drawing.columns.channel }).count()).toBe(0);
    expect(await drawings.page.getByText(text.drawing.callbackOff).count()).toBe(0);
    await saveScreenshot(drawings.page, `tasks-drawing-submitted-${language}`);

    // One poll: both in progress at half way; the pages refresh on their own while tasks run.
    await letOnePollThrough();
    await expectRow(drawing, text.drawing.statuses.IN_PROGRESS, '50');
    await expectRow(song, text.tasks.statuses.IN_PROGRESS, '50');
    await saveScreenshot(songs.page, `tasks-music-in-progress-${language}`);

    // The next: done, with the image and the song.
    await letOnePollThrough();
    await expectRow(drawing, text.drawing.statuses.SUCCESS, '100');
    await expectRow(song, text.tasks.statuses.SUCCESS, '100');
    await drawing.getByText(durationPattern(text.drawing.seconds)).waitFor();
    await song.getByText(durationPattern(text.tasks.seconds)).waitFor();

    // The image viewer shows the picture the proxy drew, served through Switchboard.
    await drawing.locator('.ant-image').click();
    const viewer = drawings.page.locator('.ant-image-preview img');
    await viewer.waitFor();
    expect(await viewer.getAttribute('src')).toContain(`/mj/image/${drawingId}`);
    await expect.poll(() => viewer.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await saveScreenshot(drawings.page, `tasks-drawing-image-${language}`);
    await drawings.page.keyboard.press('Escape');

    // The task's full JSON, with the song's audio.
    await song.getByRole('button', { name: songId }).click();
    const details = songs.page.getByRole('dialog').filter({ hasText: text.tasks.details.replace('{{id}}', songId) });
    const json = JSON.parse((await details.locator('pre').textContent()) ?? '{}') as Record<string, unknown>;
    expect(json).toMatchObject({ task_id: songId, platform: 'suno', action: 'MUSIC', status: 'SUCCESS', progress: '100%' });
    expect(JSON.stringify(json.data)).toContain('.mp3');
    await saveScreenshot(songs.page, `tasks-music-json-${language}`);

    expect([...drawings.consoleErrors, ...songs.consoleErrors]).toEqual([]);
    await drawings.context.close();
    await songs.context.close();
  }, 120_000);

  it('shows the same tasks to the administrator with their channel, and the callback-off banner', async () => {
    const admin = await openConsole(browser, server.url, { language });
    await loginAs(admin.page, 'root', rootPassword, '/midjourney');
    await admin.page.getByText(text.drawing.callbackOff).waitFor();
    const drawing = admin.page.locator('tr.ant-table-row', { hasText: drawingId });
    await expectRow(drawing, text.drawing.statuses.SUCCESS, '100');
    await expect.poll(async () => (await cellUnder(admin.page, drawing, text.drawing.columns.channel)).textContent()).toBe(String(channelIds.midjourney));
    await saveScreenshot(admin.page, `tasks-drawing-admin-${language}`);

    await navigateInApp(admin.page, '/task');
    const song = admin.page.locator('tr.ant-table-row', { hasText: songId });
    await expectRow(song, text.tasks.statuses.SUCCESS, '100');
    await expect.poll(async () => (await cellUnder(admin.page, song, text.tasks.columns.channel)).textContent()).toBe(String(channelIds.suno));
    expect(admin.consoleErrors).toEqual([]);
    await admin.context.close();
  });

  it('lists the per-action prices of the drawing and music models on the pricing page', async () => {
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.goto('/pricing');
    const priceRow = (page: Page, model: string) => page.locator('tr.ant-table-row', { has: page.getByText(model, { exact: true }) });
    for (const [model, price] of [
      ['mj_imagine', '$0.1'],
      ['mj_upscale', '$0.05'],
      ['suno_music', '$0.1'],
      ['suno_lyrics', '$0.01'],
    ] as const) {
      const row = priceRow(page, model);
      await row.getByText(text.pricing.billing.call, { exact: true }).waitFor();
      await row.getByText(text.pricing.price.call.replace('{{price}}', price), { exact: true }).waitFor();
    }
    await saveScreenshot(page, `tasks-pricing-${language}`);
    await context.close();
  });
});
