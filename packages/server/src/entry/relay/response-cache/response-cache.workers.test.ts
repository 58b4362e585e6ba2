import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../../testing/test-databases.ts';
import { withTwoWorkerGateway } from '../../../testing/two-worker-gateway.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';

/**
 * WORKERS=2: each worker keeps its own answers in memory (answered synchronously, as objects), so a
 * request is a miss once per worker at most, then a hit; every answer is billed once, a hit at the
 * rule's ratio of the miss, and the token is charged exactly what the logs say.
 */

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('the response cache with two worker processes on $dialect', (database) => {
  it('answers repeats from each worker’s memory and bills every request once', async () => {
    const upstream = new FakeOpenAIUpstream();
    await upstream.start();
    try {
      await withTwoWorkerGateway(database, {}, async ({ gateway, database: handle, root }) => {
        const channel = { type: 1, name: 'cached', key: 'sk-cached-upstream', base_url: upstream.baseUrl, models: 'gpt-4o-mini', group: 'default' };
        expect((await root.post('/api/channel/', channel)).success).toBe(true);
        const rules = JSON.stringify([{ model: 'gpt-4o-*', ttl: 300, hit_ratio: 0.1 }]);
        expect((await root.put('/api/option/', { key: 'ResponseCacheRules', value: rules })).success).toBe(true);
        const token = await root.post<{ data: Array<{ id: number; key: string }> }>('/api/token/', {
          name: 'cached',
          remain_quota: 50_000_000,
          expired_time: -1,
        });
        const { id: tokenId, key } = token.data[0]!;
        const relay = async () => {
          const answer = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'the same question' }] }),
          });
          return { status: answer.status, cache: answer.headers.get('x-switchboard-cache'), text: await answer.text() };
        };
        const answers = [];
        for (let index = 0; index < 10; index += 1) answers.push(await relay());
        expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
        const misses = answers.filter((answer) => answer.cache === 'miss').length;
        expect(answers.filter((answer) => answer.cache === 'hit').length).toBe(10 - misses);
        expect(misses).toBeGreaterThanOrEqual(1);
        expect(misses).toBeLessThanOrEqual(2);
        expect(upstream.requests).toHaveLength(misses);
        const missed = new Set(answers.filter((answer) => answer.cache === 'miss').map((answer) => answer.text));
        expect(answers.every((answer) => missed.has(answer.text))).toBe(true);

        const logs = async () => handle.db.selectFrom('logs').select(['quota', 'other']).where('token_id', '=', tokenId).where('type', '=', 2).execute();
        await expect.poll(async () => (await logs()).length, { timeout: 15_000 }).toBe(10);
        const entries = await logs();
        const marked = (mark: string) => entries.filter((entry) => (JSON.parse(entry.other ?? '{}') as { response_cache?: string }).response_cache === mark);
        const [missRow] = marked('miss');
        expect(marked('miss')).toHaveLength(misses);
        expect(marked('hit').map((entry) => Number(entry.quota))).toEqual(Array(10 - misses).fill(Math.round(Number(missRow?.quota) * 0.1)));
        const logged = entries.reduce((sum, entry) => sum + Number(entry.quota), 0);
        const charged = async () =>
          Number((await handle.db.selectFrom('tokens').select('used_quota').where('id', '=', tokenId).executeTakeFirstOrThrow()).used_quota);
        await expect.poll(charged, { timeout: 15_000 }).toBe(logged);
      });
    } finally {
      await upstream.stop();
    }
  }, 120_000);
});
