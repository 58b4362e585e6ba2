import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Language, saveScreenshot } from '../../support/browser.ts';
import { localeText } from '../../support/locales.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, waitForToast, type OperationsWorld } from './operations-world.ts';

let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
  const channel = await world.root.post('/api/channel/', {
    mode: 'single',
    channel: { type: 1, name: 'limits-upstream', key: 'sk-limits-upstream', base_url: world.upstream.baseUrl, models: 'gpt-4o-mini', group: 'default' },
  });
  expect(channel.success, channel.message).toBe(true);
});

afterAll(async () => {
  await world?.close();
});

interface TokenRecord {
  id: number;
  key: string;
  name: string;
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
}

async function tokenNamed(name: string): Promise<TokenRecord> {
  const [token] = (await world.root.get<TokenRecord[]>(`/api/token/search?keyword=${name}`)).data;
  if (!token) throw new Error(`token ${name} not found`);
  return token;
}

async function chat(apiKey: string): Promise<{ status: number; retryAfter: string | null; code: string | undefined }> {
  const response = await fetch(`${world.server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const body = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body.error?.code };
}

describe.each<Language>(['zh'])('request limits in the console (%s)', (language) => {
  const text = locales[language];
  const settings = localeText('settings', language);

  it('sets a token’s requests per minute and concurrency in its drawer, which the relay then holds', async () => {
    const name = `limited-${language}`;
    const { page, context, consoleErrors } = await world.open('/token', { language });
    await page.getByText(text.tokens.warning).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: buttonName(text.tokens.toolbar.add) }).click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByPlaceholder(text.tokens.form.namePlaceholder).fill(name);
    await drawer.getByText(text.tokens.limits.title).waitFor();
    const rpm = drawer.getByLabel(text.tokens.limits.rpm, { exact: true });
    const tpm = drawer.getByLabel(text.tokens.limits.tpm, { exact: true });
    const concurrency = drawer.getByLabel(text.tokens.limits.concurrency, { exact: true });
    // A new token is unlimited: empty fields.
    expect([await rpm.inputValue(), await tpm.inputValue(), await concurrency.inputValue()]).toEqual(['', '', '']);
    await rpm.fill('2');
    await concurrency.fill('3');
    await saveScreenshot(page, `token-limits-drawer-${language}`);
    await drawer.getByRole('button', { name: buttonName(text.tokens.drawer.submit) }).click();
    await waitForToast(page, text.tokens.messages.created);
    const saved = await tokenNamed(name);
    expect(saved).toMatchObject({ rpm_limit: 2, tpm_limit: 0, concurrency_limit: 3 });

    const answers = [await chat(`sk-${saved.key}`), await chat(`sk-${saved.key}`), await chat(`sk-${saved.key}`)];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[2]).toMatchObject({ code: 'token_rpm_limit_exceeded' });
    expect(Number(answers[2]?.retryAfter)).toBeGreaterThan(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("saves new-api's model request rate limit settings", async () => {
    const { page, context, consoleErrors } = await world.open('/setting?tab=operation', { language });
    const section = page.getByTestId('section-rateLimit');
    await page.getByTestId('save-rateLimit').waitFor({ timeout: 30_000 });
    await expect.poll(() => section.locator('.ant-card-head-title').innerText()).toBe(settings('sections.rateLimit'));
    const field = (key: string) => section.getByLabel(settings(`fields.${key}`), { exact: true });
    const enabled = field('ModelRequestRateLimitEnabled');
    if ((await enabled.getAttribute('aria-checked')) !== 'true') await enabled.click();
    await field('ModelRequestRateLimitSuccessCount').fill(language === 'zh' ? '300' : '400');
    await field('ModelRequestRateLimitGroup').fill(JSON.stringify({ vip: [0, 50] }));
    await page.getByTestId('save-rateLimit').click();
    await page
      .locator('.ant-message-notice', { hasText: settings('messages.saved') })
      .last()
      .waitFor();
    const options = (await world.root.get<Array<{ key: string; value: string }>>('/api/option/')).data;
    const value = (key: string) => options.find((option) => option.key === key)?.value;
    expect(value('ModelRequestRateLimitEnabled')).toBe('true');
    expect(value('ModelRequestRateLimitSuccessCount')).toBe(language === 'zh' ? '300' : '400');
    expect(JSON.parse(value('ModelRequestRateLimitGroup') ?? '{}')).toEqual({ vip: [0, 50] });
    await world.root.setOptions({ ModelRequestRateLimitEnabled: 'false' });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
