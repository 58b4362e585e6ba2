import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelHealthMessages } from '../../packages/server/src/entry/relay/channel-health/channel-health.messages.ts';
import { navigateInApp, saveScreenshot, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { buttonName, createWorld, waitForToast, type OperationsWorld } from './operations/operations-world.ts';

/**
 * A model nobody can call for lack of a price is marked where models are chosen or tested: the
 * channel drawer, the channel test (passes upstream, but callers get 400), the price list (which
 * hides it), the playground; "Set a price" opens the price editor on the model, and once priced the
 * marks are gone. The self-use switch in the operation settings lifts them all.
 */
let world: OperationsWorld;
const house = 'house-model-7b';

beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world?.close());

// One language, as every flow (the server's zh message for the channel test is checked in channel-test.test.ts): the other is covered by the language smoke pass (language-smoke.test.ts) and the locale check.
describe.each(['en'] as const)('unpriced models (%s)', (language: Language) => {
  const common = localeText('common', language);
  const channels = localeText('channels', language);
  const settings = localeText('settings', language);
  const model = `${house}-${language}`;
  let channelId = 0;

  beforeAll(async () => {
    const created = await world.root.post('/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: `unpriced-${language}`,
        key: `sk-unpriced-${language}`,
        base_url: world.upstream.baseUrl,
        models: `${model},gpt-4o-mini`,
        group: 'default',
        test_model: model,
      },
    });
    expect(created.success, created.message).toBe(true);
    const listed = await world.root.get<Array<{ id: number; name: string }>>(`/api/channel/search?keyword=unpriced-${language}`);
    channelId = listed.data.find((channel) => channel.name === `unpriced-${language}`)?.id ?? 0;
  });

  it('marks it on the price list, in the playground and in the channel drawer', { timeout: 120_000 }, async () => {
    const { page, context, consoleErrors } = await world.open('/pricing', { language, width: 1440 });
    context.setDefaultTimeout(30_000);
    const notice = page.getByTestId('unpriced-models-notice');
    await notice.locator(`[data-model="${model}"]`).waitFor();
    expect(await notice.locator('[data-model="gpt-4o-mini"]').count()).toBe(0);
    await saveScreenshotsInBothThemes(page, `unpriced-pricing-${language}`);

    await navigateInApp(page, '/playground');
    const picker = page.getByRole('combobox', { name: localeText('playground', language)('settings.model') });
    await picker.click();
    await picker.fill(model);
    await page.locator('.ant-select-item-option', { hasText: model }).getByText(common('unpriced.tag')).waitFor();
    await picker.press('Enter');
    await page
      .locator(`[data-testid="unpriced-model"][data-model="${model}"]`)
      .getByRole('link', { name: common('unpriced.setPrice') })
      .waitFor();
    await saveScreenshot(page, `unpriced-playground-${language}`);

    await navigateInApp(page, `/channel/edit/${channelId}`);
    const inDrawer = page.getByTestId('drawer-unpriced-models');
    await inDrawer.getByText(channels('form.unpricedModels')).waitFor();
    await inDrawer.locator(`[data-model="${model}"]`).waitFor();
    expect(await inDrawer.locator('[data-model="gpt-4o-mini"]').count()).toBe(0);
    await saveScreenshotsInBothThemes(page, `unpriced-channel-drawer-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('says a passing test is no use to callers, and Set a price opens the editor on the model', { timeout: 120_000 }, async () => {
    const { page, context, consoleErrors } = await world.open('/channel', { language, width: 1440 });
    context.setDefaultTimeout(30_000);
    const row = page.locator('tr.ant-table-row', { hasText: `unpriced-${language}` });
    await row.waitFor();
    await saveScreenshot(page, `unpriced-channel-list-${language}`);
    await row.getByRole('button', { name: buttonName(channels('actions.test')) }).click();
    const warning = page.getByTestId('test-unpriced');
    await warning.getByText(channelHealthMessages.passedButUnpriced[language].replace('{model}', model)).waitFor();
    await saveScreenshotsInBothThemes(page, `unpriced-channel-test-${language}`);
    // The toast may still be sliding in: a DOM click does not wait for it to stand still.
    await warning.getByTestId('set-price').dispatchEvent('click');

    await page.waitForURL((url) => url.pathname === '/setting' && url.searchParams.get('price') === model);
    const price = page.getByLabel(`${model} ${settings('pricing.price')}`);
    await expect.poll(() => price.evaluate((input) => input === document.activeElement), { timeout: 30_000 }).toBe(true);
    await saveScreenshotsInBothThemes(page, `unpriced-set-price-${language}`);
    await price.fill('0.002');
    await page
      .getByTestId('pricing-editor')
      .getByRole('button', { name: buttonName(settings('pricing.save')) })
      .click();
    await waitForToast(page, settings('messages.saved'));

    // Priced now: the channel test says nothing more than that it passed, and the price list shows it.
    const unpriced = await world.root.get<{ models: string[] }>(`/api/pricing/unpriced?models=${model}`);
    expect(unpriced.data.models).toEqual([]);
    await page.goto('/pricing');
    await page.locator('tr.ant-table-row', { hasText: model }).waitFor();
    expect(await page.locator(`[data-testid="unpriced-models-notice"] [data-model="${model}"]`).count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe('self-use mode', () => {
  it('is a switch in the operation settings that lifts every mark', { timeout: 120_000 }, async () => {
    const settings = localeText('settings', 'en');
    const created = await world.root.post('/api/channel/', {
      mode: 'single',
      channel: { type: 1, name: 'self-use', key: 'sk-self-use', base_url: world.upstream.baseUrl, models: 'self-use-model', group: 'default' },
    });
    expect(created.success, created.message).toBe(true);
    const { page, context } = await world.open('/setting?tab=operation', { language: 'en', width: 390 });
    context.setDefaultTimeout(30_000);
    const toggle = page.getByRole('switch', { name: settings('fields.SelfUseModeEnabled') });
    await toggle.waitFor();
    await saveScreenshotsInBothThemes(page, 'unpriced-self-use-switch-en-390');
    expect((await world.root.get<{ models: string[] }>('/api/pricing/unpriced')).data.models).toContain('self-use-model');
    await toggle.click();
    await page.getByTestId('save-general').click();
    await waitForToast(page, settings('messages.saved'));
    expect((await world.root.get<{ self_use_mode: boolean; models: string[] }>('/api/pricing/unpriced')).data).toEqual({ self_use_mode: true, models: [] });
    await page.goto('/pricing');
    await page.locator('tr.ant-table-row', { hasText: 'self-use-model' }).waitFor();
    expect(await page.getByTestId('unpriced-models-notice').count()).toBe(0);
    await world.root.setOptions({ SelfUseModeEnabled: 'false' });
    await context.close();
  });
});
