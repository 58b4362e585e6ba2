import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigateInApp, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { buttonName, createWorld, waitForToast, type OperationsWorld } from './operations/operations-world.ts';

const model = 'gpt-4o-mini';
const callerSecret = `sk-${'E2eSecret'.repeat(6)}`;
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
  const channel = await world.root.post('/api/channel/', {
    mode: 'single',
    channel: { type: 1, name: 'payload-channel', key: 'sk-payload-upstream', base_url: world.upstream.baseUrl, models: model, group: 'default' },
  });
  if (!channel.success) throw new Error(`creating the channel failed: ${channel.message}`);
});

afterAll(async () => {
  await world?.close();
});

interface LogRow {
  id: number;
  token_name: string;
}

/** The newest log row of a token, once the batched log writer has stored it. */
async function newestLogId(tokenName: string): Promise<number | undefined> {
  const page = await world.root.get<{ items: LogRow[] }>(`/api/log/?p=1&page_size=20&token_name=${tokenName}`);
  return page.data.items.find((entry) => entry.token_name === tokenName)?.id;
}

describe.each<Language>(['zh'])('payload logging in the console (%s)', (language: Language) => {
  const tokens = localeText('tokens', language);
  const logs = localeText('logs', language);

  it('an administrator turns the switch on for a token, and the log detail shows the stored bodies', async () => {
    const name = `payload-${language}`;
    const created = await world.root.post<Array<{ id: number; key: string; log_payload: boolean }>>('/api/token/', {
      name,
      remain_quota: 5_000_000,
      expired_time: -1,
    });
    const token = created.data[0];
    if (!token) throw new Error(`creating the token failed: ${created.message}`);
    expect(token.log_payload).toBe(false);

    // The token drawer: the payload switch, on, saved.
    const { page, context, consoleErrors } = await world.open('/token', { language });
    const row = page.locator('tr', { has: page.getByText(name, { exact: true }) });
    await row.getByRole('button', { name: tokens('actions.edit') }).click();
    const toggle = page.getByTestId('token-log-payload');
    await toggle.waitFor();
    await page.getByText(tokens('payload.title'), { exact: true }).waitFor();
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await saveScreenshot(page, `token-payload-switch-${language}`);
    await page.getByRole('button', { name: buttonName(tokens('drawer.submit')) }).click();
    await waitForToast(page, tokens('messages.updated'));
    expect((await world.root.get<{ log_payload: boolean }>(`/api/token/${token.id}`)).data.log_payload).toBe(true);

    // A request through the relay with that token, carrying a key the payload must not keep.
    const answer = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, api_key: callerSecret, messages: [{ role: 'user', content: `Hello payload ${language}` }] }),
    });
    expect(answer.status).toBe(200);

    // Written in batches: wait until the log row and its payload are both stored.
    await expect.poll(() => newestLogId(name)).toBeTypeOf('number');
    const logId = (await newestLogId(name)) ?? 0;
    await expect.poll(async () => (await world.root.get(`/api/log/${logId}/payload`)).data !== null).toBe(true);

    // The log page: the row's detail shows both bodies, the key redacted.
    await navigateInApp(page, '/log');
    const logRow = page.locator('tr.ant-table-row', { hasText: name }).first();
    await logRow.waitFor();
    await logRow.locator('.ant-table-row-expand-icon').click();
    const request = page.getByTestId('log-payload-request');
    await request.waitFor();
    await page.getByText(logs('payload.request'), { exact: true }).waitFor();
    await page.getByText(logs('payload.response'), { exact: true }).waitFor();
    expect(await request.textContent()).toContain(`Hello payload ${language}`);
    expect(await request.textContent()).toContain('[redacted]');
    expect(await request.textContent()).not.toContain(callerSecret);
    expect(await page.getByTestId('log-payload-response').textContent()).toContain('Hello from the fake upstream.');
    await saveScreenshot(page, `log-payload-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it('edits the payload options in the logs settings section', async () => {
    const settings = localeText('settings', language);
    const { page, context, consoleErrors } = await world.open('/setting?tab=operation', { language });
    const section = page.getByTestId('section-logs');
    const field = (key: string) => section.getByLabel(settings(`fields.${key}`), { exact: true });
    await field('LogPayloadEnabled').waitFor();
    await section.getByText(settings('help.LogPayloadMaxBytes')).waitFor();
    await field('LogPayloadEnabled').click();
    await field('LogPayloadRetentionDays').fill('3');
    await field('LogPayloadMaxBytes').fill('4096');
    await saveScreenshot(page, `payload-settings-${language}`);
    await page.getByTestId('save-logs').click();
    await waitForToast(page, settings('messages.saved'));
    const stored = async () => {
      const answer = await world.root.get<Array<{ key: string; value: string }>>('/api/option/');
      return Object.fromEntries(answer.data.filter((item) => item.key.startsWith('LogPayload')).map((item) => [item.key, item.value]));
    };
    await expect.poll(stored).toEqual({ LogPayloadEnabled: 'true', LogPayloadRetentionDays: '3', LogPayloadMaxBytes: '4096' });
    await world.root.setOptions({ LogPayloadEnabled: 'false', LogPayloadRetentionDays: '7', LogPayloadMaxBytes: '65536' });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
