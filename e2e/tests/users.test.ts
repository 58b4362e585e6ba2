import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshot, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
});

afterAll(() => closeFileServer(server));

const texts = {
  zh: {
    title: '用户管理',
    add: '添加用户',
    save: '保存',
    created: '用户账户创建成功！',
    search: '搜索',
    promote: '提升',
    demote: '降级',
    disable: '禁用',
    enable: '启用',
    deregister: '注销',
    deregistered: '已注销',
    admin: '管理员',
    banned: '已封禁',
    active: '已激活',
    edit: '编辑',
    saved: '用户信息更新成功！',
    addQuota: '添加额度',
    ok: '确定',
    group: '分组',
    usernameRequired: '请输入用户名！',
    username: '用户名',
    displayName: '显示名称',
    password: '密码',
  },
  en: {
    title: 'User management',
    add: 'Add user',
    save: 'Save',
    created: 'User account created',
    search: 'Search',
    promote: 'Promote',
    demote: 'Demote',
    disable: 'Disable',
    enable: 'Enable',
    deregister: 'Deregister',
    deregistered: 'Deregistered',
    admin: 'Administrator',
    banned: 'Banned',
    active: 'Activated',
    edit: 'Edit',
    saved: 'User info updated',
    addQuota: 'Add quota',
    ok: 'OK',
    group: 'Group',
    usernameRequired: 'Please enter a username!',
    username: 'Username',
    displayName: 'Display name',
    password: 'Password',
  },
} satisfies Record<Language, Record<string, string>>;

/** Picks `value` in the select dropdown that is open. */
async function chooseOption(page: Page, value: string): Promise<void> {
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${value}"]`).click();
}

function row(page: Page, username: string) {
  return page.getByTestId('users-table').locator('tr', { has: page.getByText(username, { exact: true }) });
}

describe.each<Language>(['en'])('user management (%s)', (language) => {
  const text = texts[language];

  it.each(['light', 'dark'] as const)('lists users (%s theme)', async (theme) => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, theme });
    await loginAs(page, 'root', '123456', '/user');
    await row(page, 'root').waitFor();
    await saveScreenshot(page, `users-${language}-${theme}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('says why the list could not load, and shows an empty search as such', async () => {
    const t = localeText('users', language);
    const { page, context } = await openConsole(browser, server.url, { language });
    await page.route(
      (url) => url.pathname === '/api/user/',
      (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ success: false, message: 'database unavailable', data: null }) }),
    );
    await loginAs(page, 'root', '123456', '/user');
    await page
      .getByTestId('users-load-error')
      .getByText(t('loadFailed', { message: 'database unavailable' }))
      .waitFor();
    await page.unrouteAll();
    await page.getByTestId('user-keyword').fill('nobody-has-this-name');
    await page.getByRole('button', { name: text.search }).click();
    // The failed list also leaves the table empty: wait for the search's answer to replace the error first.
    await page.getByTestId('users-load-error').waitFor({ state: 'detached' });
    await page.getByTestId('users-table').getByText(t('empty')).waitFor();
    await context.close();
  });

  it('adds, searches, edits, promotes, demotes, disables, enables and deregisters a user', async () => {
    const username = `e2e${language}${Date.now() % 100000}`;
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, 'root', '123456', '/user');
    await row(page, 'root').waitFor();

    // Add: the username is required, then the user is created.
    await page.getByTestId('add-user').click();
    await page.getByTestId('add-user-submit').click();
    await page.getByText(text.usernameRequired).waitFor();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel(text.username, { exact: true }).fill(username);
    await drawer.getByLabel(text.displayName).fill('Display');
    await drawer.getByLabel(text.password, { exact: true }).fill('password123');
    await saveScreenshotsInBothThemes(page, `users-add-${language}`);
    await page.getByTestId('add-user-submit').click();
    await page.getByText(text.created).waitFor();

    // Search by keyword. The search fields are named for assistive technology, not by a placeholder alone.
    const t = localeText('users', language);
    expect(await page.getByTestId('user-keyword').getAttribute('aria-label')).toBe(t('search.keyword'));
    expect(await page.locator('#userSearch_group').getAttribute('aria-label')).toBe(t('search.group'));
    await page.getByTestId('user-keyword').fill(`  ${username} `);
    await page.getByRole('button', { name: text.search }).click();
    await row(page, username).waitFor();
    expect(page.url()).toContain(`keyword=${username}`);

    // Edit: group and a quota adjustment through old + added = new.
    await row(page, username).getByRole('button', { name: text.edit }).click();
    await page.getByTestId('user-edit-form').waitFor();
    await page.getByTestId('user-edit-form').getByLabel(text.group, { exact: true }).click();
    await chooseOption(page, 'vip');
    await page.getByTestId('adjust-quota').click();
    const delta = page.getByRole('dialog', { name: text.addQuota }).getByRole('spinbutton');
    expect(await delta.getAttribute('aria-label')).toBe(t('quota.placeholder'));
    // The cursor is in the amount at once: typing needs no click.
    await expect.poll(() => delta.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type('500000');
    await page
      .getByTestId('quota-equation')
      .getByText(/\+ 500000 =/)
      .waitFor();
    await saveScreenshotsInBothThemes(page, `users-quota-${language}`);
    await page.getByRole('dialog', { name: text.addQuota }).getByRole('button', { name: text.ok }).click();
    await page.getByTestId('edit-user-submit').click();
    await page.getByText(text.saved).waitFor();
    const [created] = (await root.get<Array<{ quota: number }>>(`/api/user/search?keyword=${username}`)).data;
    expect(created).toMatchObject({ group: 'vip' });
    expect(created?.quota).toBeGreaterThanOrEqual(500000);

    // Search by group: only that group's users are listed. (The closing drawer hands focus back to the
    // row's edit button once it is gone, which would close a dropdown opened before that.)
    await page.locator('.ant-drawer').waitFor({ state: 'detached' });
    await page.getByTestId('user-keyword').fill('');
    await page.locator('.ant-select', { has: page.locator('#userSearch_group') }).click();
    await chooseOption(page, 'vip');
    await page.getByRole('button', { name: text.search }).click();
    await page.waitForURL(/group=vip/);
    await row(page, username).waitFor();
    await row(page, 'root').waitFor({ state: 'detached' });
    // Narrowed to the new user for the row actions. On a loaded machine the previous search's list can
    // still be settling when the keyword is typed (the bar refills itself from the address), so the
    // search is repeated until the address has the keyword; searching by keyword itself is checked above.
    await expect
      .poll(async () => {
        await page.getByTestId('user-keyword').fill(username);
        await page.getByRole('button', { name: text.search }).click();
        return page.url();
      })
      .toContain(`keyword=${username}`);

    // Promote, demote, disable, enable.
    await row(page, username).getByRole('button', { name: text.promote }).click();
    await row(page, username).getByText(text.admin, { exact: true }).waitFor();
    await row(page, username).getByRole('button', { name: text.demote }).click();
    await row(page, username).getByRole('button', { name: text.promote }).waitFor();
    await row(page, username).getByRole('button', { name: text.disable }).click();
    await row(page, username).getByText(text.banned).waitFor();
    await row(page, username).getByRole('button', { name: text.enable }).click();
    await row(page, username).getByText(text.active).waitFor();

    // Deregister (confirmed): the row turns red and loses its actions.
    await row(page, username).getByRole('button', { name: text.deregister }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: text.deregister }).click();
    await row(page, username).getByText(text.deregistered).waitFor();
    expect(await row(page, username).getByRole('button').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
