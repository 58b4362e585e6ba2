import { describe, expect, it } from 'vitest';
import { startFakeChatUpstream } from '../../testing/fake-chat-upstream.ts';
import { loginAs, type RootSession } from '../../testing/running-gateway.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { withTwoWorkerGateway } from '../../testing/two-worker-gateway.ts';

/**
 * WORKERS=2 with token and user caches far smaller than what the traffic uses: every call is likely to
 * evict a token and a user with charges queued or requests in flight, in both processes. Every answer
 * must still be charged exactly once, to the right token and user, and a console change must reach
 * both processes whether they hold the token or not.
 */
const userPassword = 'bounded-user-pass';
const tokenQuota = 10_000_000;
const userQuota = 100_000_000;

async function relay(baseUrl: string, key: string): Promise<{ status: number; requestId: string | undefined }> {
  const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await answer.text();
  return { status: answer.status, requestId: answer.status === 200 ? (answer.headers.get('x-oneapi-request-id') ?? undefined) : undefined };
}

async function createToken(session: RootSession, name: string): Promise<string> {
  const created = await session.post<{ success: boolean; data: Array<{ key: string }> }>('/api/token/', {
    name,
    remain_quota: tokenQuota,
    expired_time: -1,
    unlimited_quota: false,
  });
  expect(created.success).toBe(true);
  return created.data[0]!.key;
}

const engines = testDatabases().filter((database) => database.dialect === 'sqlite' || database.dialect === 'postgres');

describe.each(engines)('two workers whose caches hold two tokens and two users on $dialect', (database) => {
  it('charges every answer exactly once to its token and user, and applies a console change in both', async () => {
    const upstream = await startFakeChatUpstream();
    // Only the change bus and first uses bring rows into memory within this test, into caches of two.
    const caches = { TOKEN_CACHE_SIZE: '2', USER_CACHE_SIZE: '2' };
    try {
      await withTwoWorkerGateway(database, caches, async ({ gateway, database: handle, root }) => {
        const { baseUrl } = gateway;
        expect(
          (await root.post('/api/channel/', { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' }))
            .success,
        ).toBe(true);

        // Four users with two tokens each: eight tokens and four users over caches of two.
        const sessions: RootSession[] = [];
        const keys: string[] = [];
        for (let index = 0; index < 4; index += 1) {
          const username = `caller${index}`;
          expect((await root.post('/api/user/', { username, password: userPassword })).success).toBe(true);
          const id = Number((await handle.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id);
          expect((await root.put('/api/user/', { id, quota: userQuota })).success).toBe(true);
          const session = await loginAs(baseUrl, username, userPassword);
          sessions.push(session);
          keys.push(await createToken(session, 'first'), await createToken(session, 'second'));
        }

        const answered: string[] = [];
        let sent = 0;
        const caller = async () => {
          while (sent < 400) {
            const key = keys[sent % keys.length]!;
            sent += 1;
            const { status, requestId } = await relay(baseUrl, key);
            expect(status).toBe(200);
            if (requestId) answered.push(requestId);
          }
        };
        await Promise.all(Array.from({ length: 16 }, caller));
        expect(answered).toHaveLength(400);

        // Disabled through the console: refused by both workers, those holding it and those that do not.
        const disabledKey = keys[0]!;
        const disabledId = Number((await handle.db.selectFrom('tokens').select('id').where('key', '=', disabledKey).executeTakeFirstOrThrow()).id);
        expect((await sessions[0]!.put('/api/token/?status_only=true', { id: disabledId, status: 2 })).success).toBe(true);
        const statuses = await Promise.all(Array.from({ length: 12 }, async () => (await relay(baseUrl, disabledKey)).status));
        expect(statuses).toEqual(Array(12).fill(401));
        expect((await relay(baseUrl, keys[1]!)).status).toBe(200);

        // SIGTERM writes what is queued; then every balance moved by exactly what its rows say.
        gateway.child.kill('SIGTERM');
        expect(await gateway.exited).toBe(0);
        const logs = await handle.db.selectFrom('logs').select(['request_id', 'token_id', 'user_id', 'quota']).where('type', '=', 2).execute();
        const perRequest = new Map<string, number>();
        for (const row of logs) perRequest.set(row.request_id, (perRequest.get(row.request_id) ?? 0) + 1);
        expect(answered.filter((requestId) => perRequest.get(requestId) !== 1)).toEqual([]);
        expect(logs).toHaveLength(401);
        const sumFor = (field: 'token_id' | 'user_id', id: number) =>
          logs.filter((row) => Number(row[field]) === id).reduce((sum, row) => sum + Number(row.quota), 0);
        const tokens = await handle.db.selectFrom('tokens').select(['id', 'remain_quota', 'used_quota']).where('key', 'in', keys).execute();
        expect(tokens).toHaveLength(8);
        for (const token of tokens) {
          const logged = sumFor('token_id', Number(token.id));
          expect(logged).toBeGreaterThan(0);
          expect({ id: token.id, down: tokenQuota - Number(token.remain_quota), used: Number(token.used_quota) }).toEqual({
            id: token.id,
            down: logged,
            used: logged,
          });
        }
        const users = await handle.db.selectFrom('users').select(['id', 'quota', 'used_quota', 'request_count']).where('username', 'like', 'caller%').execute();
        expect(users).toHaveLength(4);
        for (const user of users) {
          const logged = sumFor('user_id', Number(user.id));
          const requests = logs.filter((row) => Number(row.user_id) === Number(user.id)).length;
          expect({ id: user.id, down: userQuota - Number(user.quota), used: Number(user.used_quota), requests: Number(user.request_count) }).toEqual({
            id: user.id,
            down: logged,
            used: logged,
            requests,
          });
        }
      });
    } finally {
      await upstream.close();
    }
  }, 120_000);
});
