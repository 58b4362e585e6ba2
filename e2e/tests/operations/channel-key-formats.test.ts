import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsolePage, type Language, navigateInApp } from '../../support/browser.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, localePattern, waitForToast, type OperationsWorld } from './operations-world.ts';

/**
 * The channel editor knows each type's native key format: it shows it, refuses a key of another shape
 * before sending, and asks for the extra fields the relay reads (Coze's bot ID, Cloudflare's account ID).
 */
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
});

afterAll(async () => {
  await world?.close();
});

interface ChannelRecord {
  name: string;
  type: number;
  other: string;
}

async function pickType(page: Page, label: string, option: string): Promise<void> {
  const drawer = page.locator('.ant-drawer-section');
  await drawer.getByLabel(label, { exact: true }).click();
  await page.keyboard.type(option);
  await page.locator('.ant-select-item-option', { hasText: option }).click();
}

describe.each<Language>(['zh'])('channel key formats (%s)', (language) => {
  const text = locales[language].channels;
  let view: ConsolePage;
  let page: Page;

  beforeAll(async () => {
    view = await world.open('/channel/add', { language });
    page = view.page;
  });

  afterAll(async () => {
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  });

  it('shows the Baidu key format, refuses a plain key and saves APIKey|SecretKey', async () => {
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByLabel(text.form.proxy).waitFor();
    await pickType(page, text.form.type, 'Baidu (15)');
    const hint = drawer.getByTestId('key-format-hint');
    await expect.poll(() => hint.textContent()).toBe(`${text.form.keyFormat}APIKey|SecretKey`);

    const name = `keys-${language}-baidu`;
    await drawer.getByPlaceholder(text.form.namePlaceholder).fill(name);
    const custom = drawer.getByPlaceholder(text.form.customModel);
    await custom.fill('ERNIE-4.0-8K');
    await custom.press('Enter');
    const key = drawer.getByPlaceholder('APIKey|SecretKey');
    await key.fill('sk-plain');
    await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
    await drawer.getByText(localePattern(text.form.keyFormatInvalid)).waitFor();

    await key.fill('baidu-api-key|baidu-secret-key');
    await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
    await waitForToast(page, text.messages.created);
    await page.waitForURL('**/channel');
    const saved = (await world.root.get<ChannelRecord[]>('/api/channel/?p=0&page_size=100')).data.find((channel) => channel.name === name);
    expect(saved).toMatchObject({ type: 15 });
  });

  it('asks Coze for its bot ID and Cloudflare for its account ID, with the key notes', async () => {
    await navigateInApp(page, '/channel/add');
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByLabel(text.form.proxy).waitFor();
    await pickType(page, text.form.type, 'Coze (49)');
    await drawer.getByLabel(text.form.botId).waitFor();
    await expect.poll(() => drawer.getByTestId('key-format-hint').textContent()).toContain(text.form.keyNote['bot-id']);

    const name = `keys-${language}-coze`;
    await drawer.getByPlaceholder(text.form.namePlaceholder).fill(name);
    await drawer.getByLabel(text.form.botId).fill('7342866812345678901');
    await drawer.getByPlaceholder(text.form.keyPlaceholder).fill('pat_e2e');
    const custom = drawer.getByPlaceholder(text.form.customModel);
    await custom.fill('coze-bot');
    await custom.press('Enter');
    await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
    await waitForToast(page, text.messages.created);
    await page.waitForURL('**/channel');
    const saved = (await world.root.get<ChannelRecord[]>('/api/channel/?p=0&page_size=100')).data.find((channel) => channel.name === name);
    expect(saved).toMatchObject({ type: 49, other: '7342866812345678901' });

    await navigateInApp(page, '/channel/add');
    await drawer.getByLabel(text.form.proxy).waitFor();
    await pickType(page, text.form.type, 'Cloudflare (39)');
    await drawer.getByLabel(text.form.accountId).waitFor();
    await expect.poll(() => drawer.getByTestId('key-format-hint').textContent()).toContain(text.form.keyNote['account-id']);
  });
});
