import type { OperationsWorld } from './operations-world.ts';

export const seed = { channel: 'e2e-seed-channel', token: 'e2e-seed-token', code: 'e2e-seed-code', model: 'gpt-4o-mini' };

/** A console API answer that must have succeeded, or the seeding stops with what failed. */
export function expectSuccess(answer: { success: boolean; message: string }, what: string): void {
  if (!answer.success) throw new Error(`${what} failed: ${answer.message}`);
}

/** The seed channel: the fake upstream serving the seed model. */
export async function createSeedChannel(world: OperationsWorld): Promise<void> {
  expectSuccess(
    await world.root.post('/api/channel/', {
      mode: 'single',
      channel: { type: 1, name: seed.channel, key: 'sk-seed', base_url: world.upstream.baseUrl, models: seed.model, group: 'default', test_model: seed.model },
    }),
    'creating the channel',
  );
}

/** One of everything through the console API: a channel on the fake upstream, a token, a code, a billed request. */
export async function seedOperations(world: OperationsWorld): Promise<void> {
  await createSeedChannel(world);
  expectSuccess(
    await world.root.post('/api/token/', { name: seed.token, remain_quota: 500_000, expired_time: -1, unlimited_quota: false }),
    'creating the token',
  );
  expectSuccess(await world.root.post('/api/redemption/', { name: seed.code, quota: 1_000_000, count: 2 }), 'creating codes');
  const codes = await world.root.post<string[]>('/api/redemption/', { name: `${seed.code}-wallet`, quota: 1_000_000, count: 1 });
  expectSuccess(await world.root.post('/api/user/topup', { key: codes.data[0] }), 'redeeming a code');
  const chat = await world.root.post<{ choices?: unknown[] }>('/pg/chat/completions', {
    model: seed.model,
    messages: [{ role: 'user', content: 'hello' }],
    stream: false,
  });
  if (!Array.isArray((chat as unknown as { choices?: unknown[] }).choices)) throw new Error(`playground request failed: ${JSON.stringify(chat)}`);
}
