import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Language, saveScreenshotsInBothThemes } from '../../support/browser.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, localePattern, waitForToast, type OperationsWorld } from './operations-world.ts';

let world: OperationsWorld;
let modelsUpstream: Server;
let modelsUrl = '';

beforeAll(async () => {
  world = await createWorld();
  // An OpenAI-style `GET /v1/models` answering two models, for "fetch model list".
  modelsUpstream = createServer((request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(
      JSON.stringify(
        request.url?.startsWith('/v1/models')
          ? {
              object: 'list',
              data: [
                { id: 'listed-a', object: 'model' },
                { id: 'listed-b', object: 'model' },
              ],
            }
          : { error: { message: 'not found' } },
      ),
    );
  });
  await new Promise<void>((resolve) => modelsUpstream.listen(0, '127.0.0.1', resolve));
  modelsUrl = `http://127.0.0.1:${(modelsUpstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => modelsUpstream?.close(resolve));
  await world?.close();
});

interface ChannelRecord {
  id: number;
  name: string;
  status: number;
  priority: number;
  tag: string;
}

async function channels(): Promise<ChannelRecord[]> {
  return (await world.root.get<ChannelRecord[]>('/api/channel/?p=0&page_size=100')).data;
}

async function createChannel(name: string, tag = ''): Promise<void> {
  const answer = await world.root.post('/api/channel/', {
    mode: 'single',
    channel: { type: 1, name, key: `sk-${name}`, base_url: world.upstream.baseUrl, models: 'gpt-4o-mini', group: 'default', tag },
  });
  expect(answer.success).toBe(true);
}

function row(page: Page, name: string) {
  return page.locator('tr.ant-table-row', { hasText: name });
}

/**
 * Confirms the open Popconfirm or confirmation dialog, then waits until it has faded out: a popover
 * still fading is "visible" and would be taken for the next one.
 */
async function confirm(page: Page): Promise<void> {
  const button = page.locator('.ant-popover:visible .ant-btn-primary, .ant-modal-confirm .ant-btn-primary').last();
  await button.click();
  await button.waitFor({ state: 'hidden' });
}

describe.each<Language>(['zh'])('operations actions (%s)', (language) => {
  const text = locales[language];
  /** Names carry the language, so the second run finds only its own rows. */
  const named = (base: string) => `${base}-${language}`;

  describe('token row actions', () => {
    it('shows the key, disables and enables, edits and deletes a token', async () => {
      expect((await world.root.post('/api/token/', { name: named('actions-token'), remain_quota: 500_000, expired_time: -1 })).success).toBe(true);
      const token = (
        await world.root.get<Array<{ id: number; key: string; status: number; name: string }>>(`/api/token/search?keyword=${named('actions-token')}`)
      ).data[0];
      if (!token) throw new Error('token not created');
      const { page, context, consoleErrors } = await world.open('/token', { language });
      const tokenRow = row(page, named('actions-token'));

      // The destructive action comes last, after chat, disable and edit.
      await tokenRow.getByTestId('row-actions').waitFor();
      const actions = await tokenRow.getByTestId('row-actions').getByRole('button').allInnerTexts();
      expect(actions.map((label) => label.replace(/\s/g, '')).at(-1)).toBe(text.tokens.actions.delete.replace(/\s/g, ''));
      await tokenRow.getByRole('button', { name: buttonName(text.tokens.actions.viewKey) }).click();
      const keyDialog = page.getByRole('dialog').filter({ hasText: localePattern(text.tokens.keyDialog.viewTitle) });
      await expect.poll(() => keyDialog.getByRole('textbox').inputValue()).toBe(`sk-${token.key}`);
      await saveScreenshotsInBothThemes(page, `ops-token-view-key-${language}`);
      await keyDialog
        .locator('.ant-modal-footer')
        .getByRole('button', { name: buttonName(text.tokens.keyDialog.close) })
        .click();
      await keyDialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: buttonName(text.tokens.toolbar.copySelected) }).click();
      await waitForToast(page, text.tokens.messages.selectFirst);

      await tokenRow.getByRole('button', { name: buttonName(text.tokens.actions.disable) }).click();
      await tokenRow.getByText(text.tokens.status['2']).waitFor();
      await tokenRow.getByRole('button', { name: buttonName(text.tokens.actions.enable) }).click();
      await tokenRow.getByText(text.tokens.status['1']).waitFor();

      await tokenRow.getByRole('button', { name: buttonName(text.tokens.actions.edit) }).click();
      const drawer = page.locator('.ant-drawer-section');
      const name = drawer.getByPlaceholder(text.tokens.form.namePlaceholder);
      await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(named('actions-token'));
      await name.fill(named('actions-token-renamed'));
      await drawer.getByRole('button', { name: buttonName(text.tokens.drawer.submit) }).click();
      await waitForToast(page, text.tokens.messages.updated);
      const renamed = row(page, named('actions-token-renamed'));
      await renamed.waitFor();

      await renamed.getByRole('button', { name: buttonName(text.tokens.actions.delete) }).click();
      await confirm(page);
      await waitForToast(page, text.tokens.messages.deleted);
      await renamed.waitFor({ state: 'detached' });
      expect((await world.root.get<unknown[]>(`/api/token/search?keyword=${named('actions-token')}`)).data).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await context.close();
    });
  });

  describe('channel row, tag and batch actions', () => {
    it('edits priority in place, disables a channel and deletes the disabled ones', async () => {
      await createChannel(named('actions-plain'));
      await createChannel(named('actions-doomed'));
      const { page, context, consoleErrors } = await world.open('/channel', { language });

      const priority = row(page, named('actions-plain')).getByLabel(text.channels.columns.priority);
      await priority.fill('5');
      await priority.blur();
      await waitForToast(page, text.channels.messages.done);
      await expect.poll(async () => (await channels()).find((channel) => channel.name === named('actions-plain'))?.priority, { timeout: 10_000 }).toBe(5);

      const doomed = row(page, named('actions-doomed'));
      await doomed.getByRole('button', { name: buttonName(text.channels.actions.disable) }).click();
      await doomed.getByText(text.channels.status['2']).waitFor();
      expect(await doomed.evaluate((element) => getComputedStyle(element).opacity)).not.toBe('1');

      await page.getByRole('button', { name: buttonName(text.channels.toolbar.deleteDisabled) }).click();
      await confirm(page);
      await waitForToast(page, localePattern(text.channels.messages.deletedCount));
      await doomed.waitFor({ state: 'detached' });
      expect((await channels()).map((channel) => channel.name)).not.toContain(named('actions-doomed'));
      expect(consoleErrors).toEqual([]);
      await context.close();
    });

    it('groups channels by tag, switches a whole tag and tags a batch', async () => {
      await createChannel(named('tagged-one'), named('e2e-tag'));
      await createChannel(named('tagged-two'), named('e2e-tag'));
      await createChannel(named('untagged-three'));
      const { page, context, consoleErrors } = await world.open('/channel', { language });

      await page.getByRole('switch', { name: text.channels.toolbar.tagMode }).click();
      const tagRow = row(page, named('e2e-tag')).first();
      await tagRow.getByText(localePattern(text.channels.tagChannels)).waitFor();
      await tagRow.getByRole('button', { name: buttonName(text.channels.actions.disableAll) }).click();
      await confirm(page);
      await waitForToast(page, text.channels.messages.done);
      await expect
        .poll(async () => (await channels()).filter((channel) => channel.tag === named('e2e-tag')).map((channel) => channel.status), { timeout: 10_000 })
        .toEqual([2, 2]);
      await tagRow.getByRole('button', { name: buttonName(text.channels.actions.enableAll) }).click();
      await confirm(page);
      await expect
        .poll(async () => (await channels()).filter((channel) => channel.tag === named('e2e-tag')).map((channel) => channel.status), { timeout: 10_000 })
        .toEqual([1, 1]);
      await page.getByRole('switch', { name: text.channels.toolbar.tagMode }).click();

      await page.getByRole('switch', { name: text.channels.toolbar.batch }).click();
      await page.getByRole('button', { name: buttonName(text.channels.batch.setTag) }).click();
      await waitForToast(page, text.channels.messages.selectToTag);
      await row(page, named('untagged-three')).getByRole('checkbox').check();
      await page.getByRole('button', { name: buttonName(text.channels.batch.setTag) }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: localePattern(text.channels.batch.setTagTitle) });
      await dialog.getByPlaceholder(text.channels.batch.tagPlaceholder).fill(named('batch-tag'));
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await waitForToast(page, localePattern(text.channels.messages.taggedCount));
      await expect
        .poll(async () => (await channels()).find((channel) => channel.name === named('untagged-three'))?.tag, { timeout: 10_000 })
        .toBe(named('batch-tag'));
      expect(consoleErrors).toEqual([]);
      await context.close();
    });
  });

  describe('redemption code actions', () => {
    it('disables, enables and renames an unused code, and locks a used one', async () => {
      const created = await world.root.post<string[]>('/api/redemption/', { name: named('actions-code'), quota: 100_000, count: 2 });
      expect(created.data).toHaveLength(2);
      expect((await world.root.post('/api/user/topup', { key: created.data[1] })).success).toBe(true);
      const { page, context, consoleErrors } = await world.open('/redemption', { language });
      const rows = row(page, named('actions-code'));
      await rows.first().waitFor();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
      const used = rows.filter({ has: page.getByText(text.redemptions.status['3'], { exact: true }) });
      expect(await used.getByRole('button', { name: buttonName(text.redemptions.actions.edit) }).isDisabled()).toBe(true);
      const unused = rows.filter({ has: page.getByText(text.redemptions.status['1'], { exact: true }) });
      await unused.getByRole('button', { name: buttonName(text.redemptions.actions.disable) }).click();
      await rows
        .filter({ has: page.getByText(text.redemptions.status['2'], { exact: true }) })
        .getByRole('button', { name: buttonName(text.redemptions.actions.enable) })
        .click();
      await unused.waitFor();
      await unused.getByRole('button', { name: buttonName(text.redemptions.actions.edit) }).click();
      const drawer = page.locator('.ant-drawer-section');
      const name = drawer.getByPlaceholder(text.redemptions.form.namePlaceholder);
      await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(named('actions-code'));
      await name.fill(named('actions-code-2'));
      await drawer.getByRole('button', { name: buttonName(text.redemptions.drawer.submit) }).click();
      await waitForToast(page, text.redemptions.messages.updated);
      await row(page, named('actions-code-2')).waitFor();
      expect(consoleErrors).toEqual([]);
      await context.close();
    });
  });

  describe('channel editor', () => {
    it('fetches the upstream model list, rejects a bad mapping and edits a saved channel', async () => {
      const { page, context, consoleErrors } = await world.open('/channel/add', { language });
      const drawer = page.locator('.ant-drawer-section');
      await drawer.getByRole('button', { name: buttonName(text.channels.form.fetchList) }).click();
      await waitForToast(page, text.channels.form.fetchNeedsKey);

      await drawer.getByPlaceholder(text.channels.form.namePlaceholder).fill(named('editor-channel'));
      await drawer.getByLabel(text.channels.form.proxy).fill(modelsUrl);
      await drawer.getByPlaceholder(text.channels.form.keyPlaceholder).fill('sk-listed');
      await drawer.getByRole('button', { name: buttonName(text.channels.form.fetchList) }).click();
      await waitForToast(page, localePattern(text.channels.form.fetched));
      // The listed model shows as a tag; as it has no price yet, it is also named in the unpriced warning.
      await drawer.locator('.ant-tag').getByText('listed-b', { exact: true }).waitFor();

      const custom = drawer.getByPlaceholder(text.channels.form.customModel);
      await custom.fill('listed-a');
      await custom.press('Enter');
      await waitForToast(page, text.channels.form.modelsExist);

      await drawer.getByLabel(text.channels.form.modelMapping).fill('{not json');
      await drawer.getByRole('button', { name: buttonName(text.channels.drawer.submit) }).click();
      await drawer.getByText(text.channels.form.mappingInvalid).waitFor();
      await drawer.getByLabel(text.channels.form.modelMapping).fill('{"gpt-3.5-turbo": "listed-a"}');
      await drawer.getByRole('button', { name: buttonName(text.channels.drawer.submit) }).click();
      await waitForToast(page, text.channels.messages.created);
      await page.waitForURL('**/channel');
      const saved = (await channels()).find((channel) => channel.name === named('editor-channel'));
      expect(saved).toBeDefined();

      await row(page, named('editor-channel'))
        .getByRole('button', { name: buttonName(text.channels.actions.edit) })
        .click();
      await page.waitForURL(`**/channel/edit/${saved?.id}`);
      const name = drawer.getByPlaceholder(text.channels.form.namePlaceholder);
      await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(named('editor-channel'));
      // The editor never receives the stored key; root reveals it on request, after a confirmation.
      expect(await drawer.getByPlaceholder(text.channels.form.keyKeep).inputValue()).toBe('');
      await drawer.getByRole('button', { name: buttonName(text.channels.form.viewKey) }).click();
      await confirm(page);
      await expect.poll(() => drawer.getByTestId('revealed-channel-key').textContent()).toContain('sk-listed');
      await drawer.getByLabel(text.channels.form.weight).fill('3');
      await drawer.getByRole('button', { name: buttonName(text.channels.drawer.submit) }).click();
      await waitForToast(page, text.channels.messages.updated);
      const full = await world.root.get<{ weight: number; models: string; model_mapping: string }>(`/api/channel/${saved?.id}`);
      expect(full.data).toMatchObject({ weight: 3, models: 'listed-a,listed-b', model_mapping: '{"gpt-3.5-turbo": "listed-a"}' });
      // Saved with the key field left empty: the stored key is kept.
      expect((await world.root.post<{ key: string }>(`/api/channel/${saved?.id}/key`)).data.key).toBe('sk-listed');
      expect(consoleErrors).toEqual([]);
      await context.close();
    });
  });
});
