import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../support/browser.ts';
import { localeText } from '../../support/locales.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, waitForToast, type OperationsWorld } from './operations-world.ts';
import { seed, seedOperations } from './seed.ts';

/**
 * The list dialect (issue 24): the system settings switch the user, token, channel, code, drawing
 * and task lists between new-api's classic arrays paged from 0 and its later `{items, total, page,
 * page_size}` paged from 1, and our console works with either, in both languages.
 */
let world: OperationsWorld;
const member = { username: 'dialect_user', password: 'dialect-password' };

beforeAll(async () => {
  world = await createWorld();
  await seedOperations(world);
  const created = await world.root.post('/api/user/', { username: member.username, password: member.password, display_name: member.username });
  if (!created.success) throw new Error(`creating the user failed: ${created.message}`);
});

afterAll(async () => {
  await world?.close();
});

type Dialect = 'classic' | 'paged';

/** Each list screen, the list call it makes, and what shows once the answer is read. */
const screens: Array<{ path: string; api: string; shows: (page: Page, language: Language) => Promise<void> }> = [
  { path: '/channel', api: '/api/channel/', shows: (page) => page.locator('tr.ant-table-row', { hasText: seed.channel }).first().waitFor() },
  { path: '/token', api: '/api/token/', shows: (page) => page.locator('tr.ant-table-row', { hasText: seed.token }).first().waitFor() },
  { path: '/redemption', api: '/api/redemption/', shows: (page) => page.locator('tr.ant-table-row', { hasText: seed.code }).first().waitFor() },
  { path: '/user', api: '/api/user/', shows: (page) => page.locator('tr.ant-table-row', { hasText: member.username }).first().waitFor() },
  { path: '/midjourney', api: '/api/mj/', shows: (page, language) => page.getByText(locales[language].drawing.empty).first().waitFor() },
  { path: '/task', api: '/api/task/', shows: (page, language) => page.getByText(locales[language].tasks.empty).first().waitFor() },
];

/** Every list screen asks for its first page the dialect's way and shows what the answer holds. */
async function listScreensWork(page: Page, language: Language, dialect: Dialect): Promise<void> {
  for (const screen of screens) {
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === screen.api && response.request().method() === 'GET');
    await page.goto(screen.path);
    const response = await answered;
    expect(new URL(response.url()).searchParams.get('p'), screen.path).toBe(dialect === 'paged' ? '1' : '0');
    const body = (await response.json()) as { data: unknown };
    if (dialect === 'paged') expect(body.data, screen.path).toMatchObject({ page: 1, items: expect.any(Array), total: expect.any(Number) });
    else expect(Array.isArray(body.data), screen.path).toBe(true);
    await screen.shows(page, language);
  }
}

/** The token form's group choice reads `/api/user/self/groups` (`{ratio, desc}` per group) and offers the labels. */
async function tokenGroupsOffered(page: Page, language: Language): Promise<void> {
  const text = locales[language].tokens;
  await page.goto('/token');
  await page.getByRole('button', { name: buttonName(text.toolbar.add) }).click();
  await page.getByLabel(text.form.group).click();
  await page.locator('.ant-select-item-option', { hasText: '默认分组' }).first().waitFor();
  await page.keyboard.press('Escape');
}

describe.each<Language>(['en'])('list dialects (%s)', (language) => {
  it('switches the lists from the system settings, and every list screen reads both dialects', async () => {
    const settings = localeText('settings', language);
    const { page, context, consoleErrors } = await world.open('/channel', { language });
    const setPaged = async (on: boolean) => {
      await page.goto('/setting?tab=system');
      const section = page.getByTestId('section-compatibility');
      const toggle = section.getByLabel(settings('fields.PagedListsEnabled'), { exact: true });
      await toggle.waitFor();
      if ((await toggle.getAttribute('aria-checked')) !== String(on)) await toggle.click();
      await page.getByTestId('save-compatibility').click();
      await waitForToast(page, settings('messages.saved'));
      await expect.poll(async () => (await world.root.get<{ paged_lists: boolean }>('/api/status')).data.paged_lists).toBe(on);
    };

    await listScreensWork(page, language, 'classic');
    await tokenGroupsOffered(page, language);
    await setPaged(true);
    await listScreensWork(page, language, 'paged');
    await tokenGroupsOffered(page, language);
    await setPaged(false);
    await listScreensWork(page, language, 'classic');
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
