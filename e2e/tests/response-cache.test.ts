import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { createWorld, waitForToast, type OperationsWorld } from './operations/operations-world.ts';

const model = 'gpt-4o-mini';
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
  const channel = await world.root.post('/api/channel/', {
    mode: 'single',
    channel: { type: 1, name: 'cache-channel', key: 'sk-cache-upstream', base_url: world.upstream.baseUrl, models: model, group: 'default' },
  });
  if (!channel.success) throw new Error(`creating the channel failed: ${channel.message}`);
});

afterAll(async () => {
  await world?.close();
});

// One language, as every flow: the other is covered by the language smoke pass (language-smoke.test.ts) and the locale check.
describe.each(['en'] as const)('response cache and fallbacks in the console (%s)', (language: Language) => {
  const settings = localeText('settings', language);
  const dashboard = localeText('dashboard', language);

  it('the root edits the cache rules and the fallback chains; a bad rule is refused and nothing changes', async () => {
    const { page, context, consoleErrors } = await world.open('/setting?tab=operation', { language });
    const section = page.getByTestId('section-cacheAndFallbacks');
    await section.waitFor();
    await page.getByText(settings('sections.cacheAndFallbacks'), { exact: true }).waitFor();
    const rules = section.getByLabel(settings('fields.ResponseCacheRules'), { exact: true });
    const fallbacks = section.getByLabel(settings('fields.ModelFallbacks'), { exact: true });
    // Both scopes, one rule each.
    const rule = JSON.stringify([
      { model: `gpt-4o*`, ttl: 300, hit_ratio: 0.1, scope: 'shared' },
      { model: `gpt-5*`, ttl: 60, hit_ratio: 0.1, scope: 'user' },
    ]);
    await rules.fill(rule);
    await fallbacks.fill(JSON.stringify({ 'gpt-5': ['gpt-5-mini', model] }));
    await page.getByTestId('save-cacheAndFallbacks').click();
    await waitForToast(page, settings('messages.saved'));
    await expect.poll(async () => JSON.parse((await world.root.option('ResponseCacheRules')) ?? '[]')).toEqual(JSON.parse(rule));
    expect(JSON.parse((await world.root.option('ModelFallbacks')) ?? '{}')).toEqual({ 'gpt-5': ['gpt-5-mini', model] });
    await saveScreenshot(page, `cache-rules-${language}`);

    await rules.fill(JSON.stringify([{ model: 'gpt-4o*', ttl: 300, hit_ratio: 2 }]));
    await page.getByTestId('save-cacheAndFallbacks').click();
    await page.locator('.ant-message-notice', { hasText: 'hit_ratio' }).last().waitFor();
    expect(JSON.parse((await world.root.option('ResponseCacheRules')) ?? '[]')).toEqual(JSON.parse(rule));
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('the dashboard shows the hit rate and savings per model and per token, and purges the cache', async () => {
    const saved = await world.root.put('/api/option/', { key: 'ResponseCacheRules', value: JSON.stringify([{ model, ttl: 300, hit_ratio: 0.1 }]) });
    expect(saved.success).toBe(true);
    const name = `cached-${language}`;
    const created = await world.root.post<Array<{ id: number; key: string }>>('/api/token/', { name, remain_quota: 5_000_000, expired_time: -1 });
    const token = created.data[0];
    if (!token) throw new Error(`creating the token failed: ${created.message}`);
    const ask = () =>
      fetch(`${world.server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: `cache me ${language}` }] }),
      });
    expect((await ask()).headers.get('x-switchboard-cache')).toBe('miss');
    expect((await ask()).headers.get('x-switchboard-cache')).toBe('hit');
    // Log rows are written in batches: wait until the report counts both.
    await expect
      .poll(async () =>
        (await world.root.get<{ by_token: Array<{ token_name: string; hits: number; misses: number }> }>('/api/response_cache/stats')).data.by_token.find(
          (line) => line.token_name === name,
        ),
      )
      .toMatchObject({ hits: 1, misses: 1 });

    const { page, context, consoleErrors } = await world.open('/detail', { language });
    const card = page.getByTestId('cache-savings');
    await card.waitFor();
    await card.getByText(dashboard('cache.moneySaved'), { exact: true }).first().waitFor();
    const tokenRow = page.getByTestId('cache-by-token').locator('tr', { hasText: name });
    await tokenRow.waitFor();
    expect(await page.getByTestId('cache-by-model').locator('tr', { hasText: model }).count()).toBe(1);
    await saveScreenshot(page, `cache-savings-${language}`);

    await page.getByTestId('cache-purge').click();
    await page.getByTestId('cache-purge-confirm').click();
    await waitForToast(page, new RegExp(dashboard('cache.purged', { count: 999 }).replace('999', '\\d+')));
    expect((await ask()).headers.get('x-switchboard-cache')).toBe('miss');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
