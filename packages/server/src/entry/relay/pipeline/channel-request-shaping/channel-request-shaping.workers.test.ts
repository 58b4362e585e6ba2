import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { withTwoWorkerGateway } from '../../../../testing/two-worker-gateway.ts';
import { FakeOpenAIUpstream } from '../../testing/fake-openai-upstream.ts';

/**
 * WORKERS=2: each worker parses the channel's overrides when it loads the channels, a console edit
 * reaches both before the console answers, and every request is billed once, under the model the
 * override asked the upstream for.
 */

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('channel request shaping with two worker processes on $dialect', (database) => {
  it('applies the override on both workers, follows a console edit at once, and bills each request once', async () => {
    const upstream = new FakeOpenAIUpstream();
    await upstream.start();
    try {
      await withTwoWorkerGateway(database, {}, async ({ gateway, database: handle, root }) => {
        const channel = {
          type: 1,
          name: 'shaped',
          key: 'sk-shaped-upstream',
          base_url: upstream.baseUrl,
          models: 'gpt-4o-mini',
          group: 'default',
          param_override: '{"model":"gpt-4o-mini-2024-07-18"}',
          header_override: '{"X-Upstream-Key":"{api_key}"}',
        };
        expect((await root.post('/api/channel/', channel)).success).toBe(true);
        const channelId = Number((await handle.db.selectFrom('channels').select('id').where('name', '=', 'shaped').executeTakeFirstOrThrow()).id);
        const token = await root.post<{ data: Array<{ id: number; key: string }> }>('/api/token/', {
          name: 'shaped',
          remain_quota: 50_000_000,
          expired_time: -1,
        });
        const { id: tokenId, key } = token.data[0]!;
        const relay = () =>
          fetch(`${gateway.baseUrl}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
          }).then(async (answer) => ({ status: answer.status, text: await answer.text() }));
        const burst = async () => (await Promise.all(Array.from({ length: 12 }, relay))).map((answer) => answer.status);

        expect(await burst()).toEqual(Array(12).fill(200));
        expect(upstream.requests.map((request) => request.body?.model)).toEqual(Array(12).fill('gpt-4o-mini-2024-07-18'));
        expect(upstream.requests.map((request) => request.headers['x-upstream-key'])).toEqual(Array(12).fill('sk-shaped-upstream'));

        // Edited through one worker: the PUT answers once both applied it.
        expect((await root.put('/api/channel/', { id: channelId, param_override: '{"model":"gpt-4o-mini-next"}' })).success).toBe(true);
        expect(await burst()).toEqual(Array(12).fill(200));
        expect(upstream.requests.slice(12).map((request) => request.body?.model)).toEqual(Array(12).fill('gpt-4o-mini-next'));

        // Once each: 24 log entries whose quotas add up to what the token was charged.
        const logs = async () => handle.db.selectFrom('logs').select(['quota', 'other']).where('token_id', '=', tokenId).where('type', '=', 2).execute();
        await expect.poll(async () => (await logs()).length, { timeout: 15_000 }).toBe(24);
        const entries = await logs();
        const charged = async () =>
          Number((await handle.db.selectFrom('tokens').select('used_quota').where('id', '=', tokenId).executeTakeFirstOrThrow()).used_quota);
        const logged = entries.reduce((sum, entry) => sum + Number(entry.quota), 0);
        expect(logged).toBeGreaterThan(0);
        await expect.poll(charged, { timeout: 15_000 }).toBe(logged);
        const upstreamModels = entries.map((entry) => (JSON.parse(entry.other ?? '{}') as { upstream_model_name?: string }).upstream_model_name);
        expect(upstreamModels.filter((model) => model === 'gpt-4o-mini-2024-07-18')).toHaveLength(12);
        expect(upstreamModels.filter((model) => model === 'gpt-4o-mini-next')).toHaveLength(12);
      });
    } finally {
      await upstream.stop();
    }
  }, 120_000);

  it("refuses on both workers a request whose channel override raises max_tokens past the token's balance, and holds the edited ceiling once fixed", async () => {
    const upstream = new FakeOpenAIUpstream();
    await upstream.start();
    try {
      await withTwoWorkerGateway(database, {}, async ({ gateway, database: handle, root }) => {
        const raisedTo = (maxTokens: number) => JSON.stringify({ operations: [{ path: 'max_tokens', mode: 'set', value: maxTokens }] });
        const channel = {
          type: 1,
          name: 'raising',
          key: 'sk-raising-upstream',
          base_url: upstream.baseUrl,
          models: 'gpt-4o-mini',
          group: 'default',
          // Its hold is far beyond the token's 50,000 whatever the model's price; the caller's 10 is not.
          param_override: raisedTo(10_000_000),
        };
        expect((await root.post('/api/channel/', channel)).success).toBe(true);
        const channelId = Number((await handle.db.selectFrom('channels').select('id').where('name', '=', 'raising').executeTakeFirstOrThrow()).id);
        const token = await root.post<{ data: Array<{ id: number; key: string }> }>('/api/token/', { name: 'raising', remain_quota: 50_000, expired_time: -1 });
        const { id: tokenId, key } = token.data[0]!;
        const relay = () =>
          fetch(`${gateway.baseUrl}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
          }).then(async (answer) => ({ status: answer.status, code: (JSON.parse(await answer.text()) as { error?: { code?: string } }).error?.code ?? '' }));
        const burst = async () => Promise.all(Array.from({ length: 12 }, relay));

        expect(await burst()).toEqual(Array(12).fill({ status: 403, code: 'pre_consume_token_quota_failed' }));
        expect(upstream.requests).toHaveLength(0);

        expect((await root.put('/api/channel/', { id: channelId, param_override: raisedTo(100) })).success).toBe(true);
        expect((await burst()).map((answer) => answer.status)).toEqual(Array(12).fill(200));
        expect(upstream.requests.map((request) => request.body?.max_tokens)).toEqual(Array(12).fill(100));

        // Each answered request billed once, the refused ones not at all.
        const logs = async () => handle.db.selectFrom('logs').select('quota').where('token_id', '=', tokenId).where('type', '=', 2).execute();
        await expect.poll(async () => (await logs()).length, { timeout: 15_000 }).toBe(12);
        const logged = (await logs()).reduce((sum, entry) => sum + Number(entry.quota), 0);
        const tokenRow = () => handle.db.selectFrom('tokens').select(['used_quota', 'remain_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
        await expect.poll(async () => Number((await tokenRow()).used_quota), { timeout: 15_000 }).toBe(logged);
        expect(Number((await tokenRow()).remain_quota)).toBe(50_000 - logged);
      });
    } finally {
      await upstream.stop();
    }
  }, 120_000);
});
