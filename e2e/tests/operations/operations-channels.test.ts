import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsolePage, type Language, navigateInApp, saveScreenshotsInBothThemes } from '../../support/browser.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, localePattern, waitForToast, type OperationsWorld } from './operations-world.ts';

/**
 * The channel list's own controls: paging in ID order, the whole-list actions, batch mode, copy, the
 * per-model test, the tag dialog and the per-type inputs of the editor. Each language starts from
 * eleven fresh channels, so the list's length is known.
 */
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
});

afterAll(async () => {
  await world?.close();
});

interface ChannelRecord {
  id: number;
  name: string;
  models: string;
  tag: string | null;
  type: number;
  other: string;
  base_url: string;
  test_time: number;
  response_time: number;
}

async function channels(idSort = false): Promise<ChannelRecord[]> {
  return (await world.root.get<ChannelRecord[]>(`/api/channel/?p=0&page_size=100&id_sort=${idSort}`)).data;
}

async function createChannel(name: string, fields: { key?: string; models?: string; tag?: string } = {}): Promise<void> {
  const channel = {
    type: 1,
    name,
    key: fields.key ?? `sk-${name}`,
    base_url: world.upstream.baseUrl,
    models: fields.models ?? 'gpt-4o-mini',
    group: 'default',
    tag: fields.tag ?? '',
  };
  const answer = await world.root.post('/api/channel/', { mode: 'single', channel });
  expect(answer.success).toBe(true);
}

const rows = (page: Page) => page.locator('tr.ant-table-row');
const row = (page: Page, text: string) => page.locator('tr.ant-table-row', { hasText: text });

/**
 * Confirms the open Popconfirm or confirmation dialog and waits until it has faded out. A dialog stays
 * open until its action's request answers (a copy waits until the server has loaded the new channel), so
 * the wait is longer than a click's.
 */
async function confirm(page: Page): Promise<void> {
  const button = page.locator('.ant-popover:visible .ant-btn-primary, .ant-modal-confirm .ant-btn-primary').last();
  await button.click();
  await button.waitFor({ state: 'hidden', timeout: 30_000 });
}

/** Picks a page size in the table's size changer ("20 / page", "20 条/页"). */
async function choosePageSize(page: Page, size: number): Promise<void> {
  await page.locator('.ant-pagination-options .ant-select').click();
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${size}\\s`) })
    .click();
}

describe.each<Language>(['en'])('channel list controls (%s)', (language) => {
  const text = locales[language].channels;
  const prefix = `list-${language}`;
  let view: ConsolePage;
  let page: Page;

  beforeAll(async () => {
    const existing = await channels();
    if (existing.length > 0) expect((await world.root.post('/api/channel/batch', { ids: existing.map((channel) => channel.id) })).success).toBe(true);
    for (let index = 1; index <= 11; index += 1) await createChannel(`${prefix}-${String(index).padStart(2, '0')}`);
    view = await world.open('/channel', { language });
    page = view.page;
  });

  afterAll(async () => {
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  });

  it('sorts by ID, appends the next page with p=1 and keeps the page size over a reload', async () => {
    const idSort = page.getByRole('switch', { name: text.toolbar.idSort });
    const sorted = page.waitForRequest((request) => request.url().includes('/api/channel/?') && request.url().includes('id_sort=true'));
    await idSort.click();
    await sorted;
    const order = (await channels(true)).map((channel) => channel.name);
    expect(order).toHaveLength(11);
    await expect.poll(() => rows(page).first().textContent()).toContain(order[0]);

    await choosePageSize(page, 20);
    await expect.poll(() => rows(page).count()).toBe(11);
    await page.reload();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('page-size'))).toBe('20');
    await page.locator('.ant-pagination-options .ant-select', { hasText: /20/ }).waitFor();
    expect(await idSort.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => rows(page).count()).toBe(11);

    const firstPage = page.waitForRequest((request) => /\/api\/channel\/\?p=0&page_size=10&id_sort=true/.test(request.url()));
    await choosePageSize(page, 10);
    await firstPage;
    await expect.poll(() => rows(page).count()).toBe(10);
    const nextPage = page.waitForRequest((request) => /\/api\/channel\/\?p=1&page_size=10&id_sort=true/.test(request.url()));
    await page.locator('.ant-pagination-item-2').click();
    await nextPage;
    await expect.poll(() => rows(page).count()).toBe(1);
    await row(page, order[10] ?? '').waitFor();
    // The first page was appended to, not fetched again: going back shows it at once.
    await page.locator('.ant-pagination-item-1').click();
    await row(page, order[0] ?? '').waitFor();

    await page.reload();
    await page.locator('.ant-pagination-options .ant-select', { hasText: /10/ }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(10);
    expect(await page.evaluate(() => localStorage.getItem('page-size'))).toBe('10');
  });

  it('tests all channels and updates all balances', async () => {
    const before = world.upstream.requests.length;
    await page.getByRole('button', { name: buttonName(text.toolbar.testAll) }).click();
    await confirm(page);
    await waitForToast(page, text.messages.testAllStarted);
    // The test runs in the background; every enabled channel is asked once. The page is asked only
    // after the server has recorded every result (a passing test records at least 1 ms: 0 reads as
    // "not tested"), so the refreshed list cannot race the background work.
    await expect.poll(async () => (await channels()).every((channel) => channel.test_time > 0 && channel.response_time > 0), { timeout: 20_000 }).toBe(true);
    expect(world.upstream.requests.length - before).toBeGreaterThanOrEqual(11);
    await page.getByRole('button', { name: buttonName(text.toolbar.refresh) }).click();
    await rows(page).first().getByText(localePattern(text.responseTime.seconds)).waitFor();

    await page.getByRole('button', { name: buttonName(text.toolbar.updateBalances) }).click();
    await confirm(page);
    await waitForToast(page, text.messages.balancesUpdated);
  });

  it('repairs the database after a warning and deletes a batch', async () => {
    await page.getByRole('switch', { name: text.toolbar.batch }).click();
    await page.getByRole('button', { name: buttonName(text.batch.fix) }).click();
    const warning = page.locator('.ant-popover:visible').getByText(text.batch.fixWarning);
    await warning.waitFor();
    await confirm(page);
    await waitForToast(page, localePattern(text.messages.fixedCount));

    await page.getByRole('button', { name: buttonName(text.batch.delete) }).click();
    await waitForToast(page, text.messages.selectToDelete);
    // The two newest, on the first page in ID order.
    const doomed = [`${prefix}-10`, `${prefix}-11`];
    for (const name of doomed) await row(page, name).getByRole('checkbox').check();
    await page.getByRole('button', { name: buttonName(text.batch.delete) }).click();
    await page.locator('.ant-popover:visible').getByText(text.confirm.deleteSelected.replace('{{count}}', '2')).waitFor();
    await confirm(page);
    await waitForToast(page, text.messages.deletedCount.replace('{{count}}', '2'));
    for (const name of doomed) await row(page, name).waitFor({ state: 'detached' });
    const left = (await channels()).map((channel) => channel.name);
    expect(left).toHaveLength(9);
    expect(left).not.toContain(doomed[0]);
    await page.getByRole('switch', { name: text.toolbar.batch }).click();
  });

  it('tests one model from the dropdown and copies a channel', async () => {
    const name = `${prefix}-multi`;
    await createChannel(name, { key: `sk-multi-${language}`, models: 'gpt-4o-mini,gpt-4o' });
    const search = page.getByPlaceholder(text.search.keyword);
    await search.fill(name);
    await search.press('Enter');
    const multi = row(page, name).first();
    await multi.waitFor();

    await multi.getByRole('button', { name: text.actions.testModel }).click();
    await page.getByRole('menuitem', { name: 'gpt-4o', exact: true }).click();
    await waitForToast(page, localePattern(text.messages.tested));
    const tested = world.upstream.requests.filter((request) => request.key === `sk-multi-${language}`);
    expect(tested.map((request) => request.body?.model)).toEqual(['gpt-4o']);

    await multi.getByRole('button', { name: buttonName(text.actions.more) }).click();
    await page.getByRole('menuitem', { name: text.actions.copy, exact: true }).click();
    await page.locator('.ant-modal-confirm-title', { hasText: text.confirm.copy.replace('{{name}}', name) }).waitFor();
    await confirm(page);
    await waitForToast(page, text.messages.copied);
    const copyName = `${name}${text.copySuffix}`;
    await row(page, copyName).waitFor();
    const copy = (await channels()).find((channel) => channel.name === copyName);
    if (!copy) throw new Error('the copy was not saved');
    const full = await world.root.get<ChannelRecord>(`/api/channel/${copy.id}`);
    expect(full.data).toMatchObject({ models: 'gpt-4o-mini,gpt-4o', base_url: world.upstream.baseUrl });
    // The key never comes with the channel; the copy's is read through the root's reveal action.
    expect((await world.root.post<{ key: string }>(`/api/channel/${copy.id}/key`)).data.key).toBe(`sk-multi-${language}`);
    await search.fill('');
    await search.press('Enter');
  });

  it('renames a tag, refuses an empty edit and dissolves the tag', async () => {
    const tag = `tag-${language}`;
    await createChannel(`${prefix}-tagged-a`, { tag });
    await createChannel(`${prefix}-tagged-b`, { tag });
    const tagged = async () => (await channels()).filter((channel) => channel.name.startsWith(`${prefix}-tagged-`)).map((channel) => channel.tag ?? '');
    await page.getByRole('switch', { name: text.toolbar.tagMode }).click();
    const tagRow = (name: string) => page.locator('tr.ant-table-row', { has: page.getByText(name, { exact: true }) });
    const dialogOf = (name: string) => page.getByRole('dialog').filter({ hasText: text.tagDialog.title.replace('{{tag}}', name) });

    await tagRow(tag)
      .getByRole('button', { name: buttonName(text.actions.edit) })
      .click();
    let dialog = dialogOf(tag);
    const newTag = dialog.getByLabel(text.tagDialog.newTag);
    await expect.poll(() => newTag.inputValue()).toBe(tag);
    await saveScreenshotsInBothThemes(page, `ops-channel-tag-dialog-${language}`);
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await waitForToast(page, text.messages.noChanges);

    const renamed = `${tag}-renamed`;
    await newTag.fill(renamed);
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await waitForToast(page, text.messages.tagUpdated);
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(tagged).toEqual([renamed, renamed]);
    await tagRow(renamed).waitFor();

    await tagRow(renamed)
      .getByRole('button', { name: buttonName(text.actions.edit) })
      .click();
    dialog = dialogOf(renamed);
    await expect.poll(() => dialog.getByLabel(text.tagDialog.newTag).inputValue()).toBe(renamed);
    await dialog.getByLabel(text.tagDialog.newTag).fill('');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(tagged).toEqual(['', '']);
    await tagRow(renamed).waitFor({ state: 'detached' });
    await row(page, `${prefix}-tagged-a`).waitFor();
    await page.getByRole('switch', { name: text.toolbar.tagMode }).click();
  });

  it('shows the Azure inputs and warning for type 3 and saves its default API version', async () => {
    await navigateInApp(page, '/channel/add');
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByLabel(text.form.proxy).waitFor();
    await drawer.getByLabel(text.form.type, { exact: true }).click();
    await page.keyboard.type('Azure OpenAI');
    await page.locator('.ant-select-item-option', { hasText: 'Azure OpenAI (3)' }).click();
    await drawer.getByText(text.form.azureWarning).waitFor();
    await drawer.getByLabel(text.form.proxy).waitFor({ state: 'detached' });
    expect(await drawer.getByLabel(text.form.azureVersion).getAttribute('placeholder')).toBe('2023-06-01-preview');

    const name = `${prefix}-azure`;
    await drawer.getByPlaceholder(text.form.namePlaceholder).fill(name);
    await drawer.getByLabel(text.form.azureEndpoint).fill('https://e2e-azure.openai.azure.com/');
    await drawer.getByPlaceholder(text.form.keyPlaceholder).fill('azure-key');
    const custom = drawer.getByPlaceholder(text.form.customModel);
    await custom.fill('gpt-4o');
    await custom.press('Enter');
    await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
    await waitForToast(page, text.messages.created);
    await page.waitForURL('**/channel');
    const azure = (await channels()).find((channel) => channel.name === name);
    expect(azure).toMatchObject({ type: 3, other: '2023-06-01-preview', base_url: 'https://e2e-azure.openai.azure.com' });
  });
});
