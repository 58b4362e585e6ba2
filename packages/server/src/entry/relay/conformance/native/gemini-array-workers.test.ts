import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { withTwoWorkerGateway } from '../../../../testing/two-worker-gateway.ts';
import { recordedText, startRecordedUpstream } from './testing/recorded-answers.ts';

/**
 * The native JSON-array stream with WORKERS=2, as users run it: calls spread over both worker
 * processes, and each one is billed once, exactly the recording's usage, with its log entry. SQLite
 * only: the in-process suite (gemini-array.test.ts) bills on every engine; this one checks the processes.
 */

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('Gemini array streams on two worker processes ($dialect)', (database) => {
  it('bills every call once, exactly the last usageMetadata, with one log entry each', async () => {
    const google = await startRecordedUpstream('google');
    google.play('google-reasoning-gemini3');
    try {
      await withTwoWorkerGateway(database, {}, async ({ gateway, database: handle, root }) => {
        expect(
          (await root.put<{ success: boolean }>('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ 'gemini-3-pro-preview': 1 }) })).success,
        ).toBe(true);
        expect(
          (
            await root.post('/api/channel/', {
              type: 24,
              name: 'gemini-array',
              key: 'gemini-recorded',
              base_url: google.url,
              models: 'gemini-3-pro-preview',
              group: 'default',
            })
          ).success,
        ).toBe(true);
        const token = await root.post<{ data: Array<{ id: number; key: string }> }>('/api/token/', {
          name: 'gemini-array',
          remain_quota: 10_000_000,
          expired_time: -1,
          unlimited_quota: false,
        });
        const { id: tokenId, key } = token.data[0]!;

        const expected = `[${recordedText('google-reasoning-gemini3.chunks.txt')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .join(',\r\n')}]`;
        const calls = 12;
        const answers = await Promise.all(
          Array.from({ length: calls }, async () => {
            const response = await fetch(`${gateway.baseUrl}/v1beta/models/gemini-3-pro-preview:streamGenerateContent`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${key}` },
              body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'How many r are in strawberry?' }] }] }),
            });
            return response.text();
          }),
        );
        expect(answers).toEqual(Array(calls).fill(expected));

        // 9 prompt, 23 candidates + 302 thoughts: 9 + 325 × 4 = 1309 each.
        const logs = async () =>
          handle.db.selectFrom('logs').select(['quota', 'prompt_tokens', 'completion_tokens']).where('token_id', '=', tokenId).where('type', '=', 2).execute();
        await expect.poll(async () => (await logs()).length, { timeout: 15_000 }).toBe(calls);
        expect((await logs()).map((log) => [Number(log.quota), Number(log.prompt_tokens), Number(log.completion_tokens)])).toEqual(
          Array(calls).fill([1309, 9, 325]),
        );
        const used = async () =>
          Number((await handle.db.selectFrom('tokens').select('used_quota').where('id', '=', tokenId).executeTakeFirstOrThrow()).used_quota);
        await expect.poll(used, { timeout: 15_000 }).toBe(calls * 1309);
      });
    } finally {
      await google.close();
    }
  }, 120_000);
});
