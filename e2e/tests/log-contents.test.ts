import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
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

const amountMark = '@@amount@@';

/** A filled locale text as a pattern where the amount (formatted by the console) may be any word. */
function withAnyAmount(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(amountMark, '\\S+')}$`);
}

describe.each(['zh', 'en'] as const)('log contents in the reader’s language (%s)', (language: Language) => {
  const logs = localeText('logs', language);

  it('shows a redemption row in the console’s language while the stored content stays new-api’s Chinese', async () => {
    const name = `lc${language}${Date.now() % 100000}`;
    expect((await root.post('/api/user/', { username: name, password: 'password123', display_name: name })).success).toBe(true);
    const user = await loginApi(server.url, name, 'password123');
    const codes = await root.post<string[]>('/api/redemption/', { name: `gift-${language}`, quota: 5_000_000, count: 1 });
    expect((await user.post('/api/user/topup', { key: codes.data[0] })).success).toBe(true);
    type Row = { content: string; other: string };
    const listed = (await user.get<Row[] | { items: Row[] }>('/api/log/self/?p=1&type=1')).data;
    const [row] = Array.isArray(listed) ? listed : listed.items;
    expect(row?.content).toMatch(/^通过兑换码充值 .+，兑换码ID \d+$/);
    const redemptionId = Number(/兑换码ID (\d+)$/.exec(row!.content)![1]);

    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, name, 'password123', '/log');
    const expected = withAnyAmount(logs('contents.log.redeem', { quota: amountMark, redemption_id: redemptionId }));
    const cell = page.locator('.ant-table-row .ant-typography').filter({ hasText: expected });
    await cell.first().waitFor({ timeout: 60_000 });
    if (language === 'en') expect(await cell.first().innerText()).not.toMatch(/[\u4e00-\u9fa5]/);
    await saveScreenshot(page, `log-contents-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('shows a channel audit row in the console’s language while the stored content stays new-api’s Chinese', async () => {
    const name = `audited-${language}`;
    const created = await root.post<number[]>('/api/channel/', { type: 1, name, key: `sk-${name}`, models: 'gpt-4o-mini', group: 'default' });
    expect(created.success, created.message).toBe(true);
    const id = created.data[0] ?? 0;
    type Row = { content: string };
    const listed = (await root.get<Row[] | { items: Row[] }>('/api/log/?p=1&type=3')).data;
    const rows = Array.isArray(listed) ? listed : listed.items;
    expect(rows.map((row) => row.content)).toContain(`管理员创建了 1 个渠道：${name}（ID ${id}）`);

    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, 'root', '123456', '/log');
    const expected = logs('contents.log.channels_created', { count: 1, name, ids: id });
    const cell = page.locator('.ant-table-row .ant-typography').filter({ hasText: expected });
    await cell.first().waitFor({ timeout: 60_000 });
    if (language === 'en') expect(await cell.first().innerText()).not.toMatch(/[\u4e00-\u9fa5]/);
    await saveScreenshot(page, `log-contents-channel-audit-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
