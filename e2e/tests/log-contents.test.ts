import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { launchBrowser, loginAs, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  root = await loginApi(server.url, 'root', '123456');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The locale's template as a pattern: the given params in place, any amount where `{{quota}}` stands. */
function templatePattern(template: string, params: Record<string, string | number>): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const filled = escaped.replace(/\\\{\\\{(\w+)\\\}\\\}/g, (_match, name: string) =>
    name === 'quota' ? '\\S+' : String(params[name]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(`^${filled}$`);
}

describe.each(['zh', 'en'] as const)('log contents in the reader’s language (%s)', (language: Language) => {
  const logs = localeText('logs', language);

  it('shows a redemption row in the console’s language while the stored content stays new-api’s Chinese', async () => {
    const name = `lc${language}${Date.now() % 100000}`;
    expect((await root.post('/api/user/', { username: name, password: 'password123', display_name: name })).success).toBe(true);
    const user = await loginApi(server.url, name, 'password123');
    const codes = await root.post<string[]>('/api/redemption/', { name: `gift-${language}`, quota: 5_000_000, count: 1 });
    expect((await user.post('/api/user/topup', { key: codes.data[0] })).success).toBe(true);
    const [row] = (await user.get<Array<{ content: string; other: string }>>('/api/log/self/?p=0&type=1')).data;
    expect(row?.content).toMatch(/^通过兑换码充值 .+，兑换码ID \d+$/);
    const redemptionId = Number(/兑换码ID (\d+)$/.exec(row!.content)![1]);

    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, name, 'password123', '/log');
    const expected = templatePattern(logs('contents.log.redeem'), { redemption_id: redemptionId });
    const cell = page.locator('.ant-table-row .ant-typography').filter({ hasText: expected });
    await cell.first().waitFor();
    if (language === 'en') expect(await cell.first().innerText()).not.toMatch(/[\u4e00-\u9fa5]/);
    await saveScreenshot(page, `log-contents-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
