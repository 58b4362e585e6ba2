import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeText } from '../../support/locales.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, waitForToast, type OperationsWorld } from './operations-world.ts';

/**
 * Routing inside a priority tier as an administrator sets it: the strategy per group in the operation
 * settings (Chinese), and a channel's RPM/TPM ceilings in the channel drawer (English), each read back
 * through the API as the relay reads them.
 */
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
});

afterAll(async () => {
  await world?.close();
});

describe('channel routing in the console', () => {
  it('saves the routing strategy per group in the operation settings, and shows the refusal of an unknown one (zh)', async () => {
    const settings = localeText('settings', 'zh');
    const view = await world.open('/setting?tab=operation', { language: 'zh' });
    const { page } = view;
    const section = page.getByTestId('section-routing');
    // The page loads the settings after the console's first paint: on a busy machine that can take a while.
    await section.waitFor({ timeout: 30_000 });
    const field: Locator = section.getByLabel(settings('fields.ChannelRoutingStrategy'), { exact: true });

    await field.fill('{"default": "fastest"}');
    await page.getByTestId('save-routing').click();
    await page.locator('.ant-message', { hasText: '格式不正确' }).waitFor();
    expect(JSON.parse((await world.root.option('ChannelRoutingStrategy')) ?? '{}')).toEqual({ default: 'weighted', groups: {} });

    const chosen = '{"default": "weighted", "groups": {"vip": "least-busy", "default": "usage-aware"}}';
    await field.fill(chosen);
    await page.getByTestId('save-routing').click();
    await waitForToast(page, settings('messages.saved'));
    await expect.poll(() => world.root.option('ChannelRoutingStrategy')).toBe(chosen);
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);

  it("saves a channel's RPM and TPM ceilings from the drawer into its setting JSON (en)", async () => {
    const text = locales.en.channels;
    // Its own name per attempt: a retried attempt must not find the channel the failed one made.
    const name = `routing-limits-en-${Date.now().toString(36)}`;
    const channel = {
      type: 1,
      name,
      key: 'sk-routing-limits',
      base_url: world.upstream.baseUrl,
      models: 'gpt-4o-mini',
      group: 'default',
    };
    expect((await world.root.post('/api/channel/', { mode: 'single', channel })).success).toBe(true);
    const found = await world.root.get<Array<{ id: number; name: string }>>(`/api/channel/search?keyword=${name}`);
    const id = found.data.find((row) => row.name === name)?.id;
    expect(id).toBeDefined();

    const view = await world.open('/channel', { language: 'en' });
    const { page } = view;
    const drawer = page.locator('.ant-drawer-section');
    await page
      .locator('tr.ant-table-row', { hasText: name })
      .getByRole('button', { name: buttonName(text.actions.edit) })
      .click({ timeout: 30_000 });
    await page.waitForURL(`**/channel/edit/${id}`);
    const nameInput = drawer.getByPlaceholder(text.form.namePlaceholder);
    await expect.poll(() => nameInput.inputValue(), { timeout: 30_000 }).toBe(name);
    await drawer.getByLabel(text.form.key_rpm_limit, { exact: true }).fill('60');
    await drawer.getByLabel(text.form.tpm_limit, { exact: true }).fill('250000');
    await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
    await waitForToast(page, text.messages.updated);
    const saved = await world.root.get<{ setting: string }>(`/api/channel/${id}`);
    expect(JSON.parse(saved.data.setting)).toEqual({ key_rpm_limit: 60, tpm_limit: 250000 });

    // Opened again, the drawer shows the ceilings; emptying one removes it.
    await page.waitForURL('**/channel');
    // The drawer shows the form once the channel's own answer is in (drawer-freshness.test.ts): wait for it.
    const loaded = page.waitForResponse((response) => response.request().method() === 'GET' && new URL(response.url()).pathname === `/api/channel/${id}`);
    await page
      .locator('tr.ant-table-row', { hasText: name })
      .getByRole('button', { name: buttonName(text.actions.edit) })
      .click({ timeout: 30_000 });
    await page.waitForURL(`**/channel/edit/${id}`);
    await loaded;
    await expect.poll(() => drawer.getByLabel(text.form.key_rpm_limit, { exact: true }).inputValue(), { timeout: 30_000 }).toBe('60');
    await drawer.getByLabel(text.form.tpm_limit, { exact: true }).fill('');
    await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
    await waitForToast(page, text.messages.updated);
    // The first save's toast may still show: the drawer closing back to the list is this save's answer.
    await page.waitForURL('**/channel');
    const emptied = await world.root.get<{ setting: string }>(`/api/channel/${id}`);
    expect(JSON.parse(emptied.data.setting)).toEqual({ key_rpm_limit: 60 });
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);
});
