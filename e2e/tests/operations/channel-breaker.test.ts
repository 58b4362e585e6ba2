import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsolePage, type Language, navigateInApp, saveScreenshotsInBothThemes } from '../../support/browser.ts';
import { localeText } from '../../support/locales.ts';
import { locales } from './locales.ts';
import { createWorld, waitForToast, type OperationsWorld } from './operations-world.ts';

/**
 * The circuit breaker as an administrator sees it: the state of each channel's breaker in the
 * channel list (a failing upstream opens it, a passing test closes it), and the periodic test and
 * breaker thresholds in the operation settings, in both languages.
 */
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
  // Two failures in a row open a breaker: the channel tests below are those failures.
  await world.root.setOptions({ ChannelBreakerConsecutiveFailures: '2' });
});

afterAll(async () => {
  await world?.close();
});

async function createChannel(name: string, key: string): Promise<number> {
  const channel = { type: 1, name, key, base_url: world.upstream.baseUrl, models: 'gpt-4o-mini', group: 'default' };
  expect((await world.root.post('/api/channel/', { mode: 'single', channel })).success).toBe(true);
  const found = await world.root.get<Array<{ id: number; name: string }>>(`/api/channel/search?keyword=${name}`);
  const id = found.data.find((row) => row.name === name)?.id;
  if (id === undefined) throw new Error(`channel ${name} not found`);
  return id;
}

describe.each<Language>(['en'])('circuit breaker in the console (%s)', (language) => {
  const text = locales[language].channels;
  const settings = localeText('settings', language);
  let view: ConsolePage;
  let page: Page;

  beforeAll(async () => {
    view = await world.open('/channel', { language });
    page = view.page;
  });

  afterAll(async () => {
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  });

  it('shows each channel breaker state in the channel list', async () => {
    const broken = `breaker-broken-${language}`;
    const healthy = `breaker-healthy-${language}`;
    world.upstream.behave(`sk-${broken}`, 'status-500');
    const brokenId = await createChannel(broken, `sk-${broken}`);
    await createChannel(healthy, `sk-${healthy}`);
    for (let index = 0; index < 2; index += 1) expect((await world.root.get(`/api/channel/test/${brokenId}`)).success).toBe(false);

    // A fresh load shows the breakers as they are now (the list also polls them every ten seconds).
    await page.reload();
    const row = (name: string): Locator => page.locator('tr.ant-table-row', { hasText: name });
    const tag = (name: string, label: string): Locator => row(name).locator('.ant-tag').getByText(label, { exact: true });
    await tag(broken, text.breaker.open).waitFor();
    await tag(healthy, text.breaker.closed).waitFor();
    // Hovering explains until when the channel is skipped.
    await tag(broken, text.breaker.open).hover();
    await page.locator('.ant-tooltip', { hasText: text.breaker.coolingDown.split('{{')[0]?.trim() ?? '' }).waitFor();
    await saveScreenshotsInBothThemes(page, `ops-channel-breaker-${language}`);

    // The upstream recovers: a passing test is the probe that closes the breaker.
    world.upstream.behave(`sk-${broken}`, 'ok');
    expect((await world.root.get(`/api/channel/test/${brokenId}`)).success).toBe(true);
    await page.reload();
    await tag(broken, text.breaker.closed).waitFor();
  });

  it('saves the periodic channel test and the breaker thresholds', async () => {
    await navigateInApp(page, '/setting?tab=operation');
    const section = (id: string): Locator => page.getByTestId(`section-${id}`);
    const field = (id: string, key: string): Locator => section(id).getByLabel(settings(`fields.${key}`), { exact: true });
    await section('monitoring').waitFor();

    await field('monitoring', 'monitor_setting.auto_test_channel_enabled').click();
    await field('monitoring', 'monitor_setting.auto_test_channel_minutes').fill(language === 'zh' ? '15' : '20');
    await field('monitoring', 'monitor_setting.channel_test_mode').click();
    await page.locator('.ant-select-item-option', { hasText: settings('choices.passive_recovery') }).click();
    await page.getByTestId('save-monitoring').click();
    await waitForToast(page, settings('messages.saved'));
    await expect.poll(() => world.root.option('monitor_setting.auto_test_channel_minutes')).toBe(language === 'zh' ? '15' : '20');
    expect(await world.root.option('monitor_setting.channel_test_mode')).toBe('passive_recovery');
    // Off by default; the one click above (this flow runs in one language) turned it on.
    expect(await world.root.option('monitor_setting.auto_test_channel_enabled')).toBe('true');

    await section('breaker').scrollIntoViewIfNeeded();
    await saveScreenshotsInBothThemes(page, `settings-breaker-${language}`);
    await field('breaker', 'ChannelBreakerCooldownSeconds').fill(language === 'zh' ? '45' : '90');
    await field('breaker', 'ChannelBreakerConsecutiveFailures').fill('3');
    await page.getByTestId('save-breaker').click();
    await waitForToast(page, settings('messages.saved'));
    await expect.poll(() => world.root.option('ChannelBreakerCooldownSeconds')).toBe(language === 'zh' ? '45' : '90');
    expect(await world.root.option('ChannelBreakerConsecutiveFailures')).toBe('3');
    // Put the threshold back for the other language's list test.
    await world.root.setOptions({ ChannelBreakerConsecutiveFailures: '2' });
  });
});
