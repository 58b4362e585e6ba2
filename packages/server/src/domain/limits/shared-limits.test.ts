import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../core/platform/clock.ts';
import { FakeOpenAIUpstream } from '../../entry/relay/testing/fake-openai-upstream.ts';
import { listenLocally, seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestUser, type TestApp } from '../../testing/test-app.ts';
import { startTwoInstances, type TwoInstances } from '../../testing/two-instances.ts';
import { FallbackLimitStore } from './fallback-limit-store.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** The test helpers take a TestApp; an instance of the pair is one (its closing is the pair's). */
function asTestApp(app: FastifyInstance): TestApp {
  return { app, context: app.switchboard.context, config: app.switchboard.context.config, close: async () => undefined };
}

/** A TCP relay in front of Redis that the test can cut, as a network partition or a Redis crash would. */
class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  constructor(target: URL) {
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Drops every connection and accepts no new one. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

const placeholderToken = {
  user_id: 0,
  key: `placeholder${Date.now()}`,
  status: 2,
  name: 'placeholder',
  created_time: 0,
  accessed_time: 0,
  expired_time: -1,
  remain_quota: 0,
  unlimited_quota: 0,
  model_limits_enabled: 0,
  model_limits: '',
  allow_ips: '',
  used_quota: 0,
  group: '',
  deleted_at: null,
};

function movableClock(): Clock & { advance(milliseconds: number): void } {
  let now = Math.floor(Date.now() / 60_000) * 60_000 + 5_000;
  return { now: () => now, unixSeconds: () => Math.floor(now / 1000), advance: (milliseconds) => void (now += milliseconds) };
}

describe.skipIf(!redisUrl)('request limits shared by two instances through Redis', () => {
  let fake: FakeOpenAIUpstream;
  let pair: TwoInstances;
  let proxy: CuttableProxy;
  let urls: string[] = [];
  const clock = movableClock();

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    proxy = new CuttableProxy(new URL(redisUrl ?? ''));
    pair = await startTwoInstances(await proxy.start(), { clock });
    urls = await Promise.all(pair.apps.map((app) => listenLocally(asTestApp(app))));
    const [first] = pair.apps;
    const ratios = first.switchboard.context.options.getJson<Record<string, number>>('ModelRatio');
    await first.switchboard.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'shared-model': 1 }));
    await seedChannel(asTestApp(first), { key: 'shared-upstream', baseUrl: fake.baseUrl, models: ['shared-model'] });
    await pair.apps[1].relay.channels.reload();
    // Limit keys name token ids and Redis outlives the run: this run's tokens get ids no earlier run had.
    await first.switchboard.context.database.db
      .insertInto('tokens')
      .values({ ...placeholderToken, id: Math.floor(Date.now() / 1000) * 1000 + Math.floor(Math.random() * 1000) })
      .execute();
    // The option reached the second instance over the Redis change bus.
    await vi.waitFor(() => expect(pair.apps[1].switchboard.context.options.getJson<Record<string, number>>('ModelRatio')['shared-model']).toBe(1));
  });
  afterAll(async () => {
    await pair?.close();
    await fake?.stop();
  });

  const limitedToken = async (limits: { rpm_limit?: number; concurrency_limit?: number }) => {
    const user = await createTestUser(asTestApp(pair.apps[0]), { quota: 100_000_000 });
    const token = await seedToken(asTestApp(pair.apps[0]), user.id, { remainQuota: 10_000_000 });
    await pair.apps[0].switchboard.context.database.db.updateTable('tokens').set(limits).where('id', '=', token.id).execute();
    await Promise.all(pair.apps.map((app) => app.relay.tokens.reload(token.id)));
    return token;
  };

  /** `count` requests at once, alternating between the two instances; their statuses. */
  const burst = (apiKey: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const response = await fetch(`${urls[index % 2]}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'shared-model', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );

  it('lets two instances together admit what one would: 25 of 300 simultaneous requests per minute, and 25 again the next minute', async () => {
    const token = await limitedToken({ rpm_limit: 25 });
    const statuses = await burst(token.apiKey, 300);
    expect(statuses.filter((status) => status === 200)).toHaveLength(25);
    expect(statuses.filter((status) => status === 429)).toHaveLength(275);
    clock.advance(60_000);
    const next = await burst(token.apiKey, 100);
    expect(next.filter((status) => status === 200)).toHaveLength(25);
  });

  it('holds a concurrency limit across both instances', async () => {
    const token = await limitedToken({ concurrency_limit: 4 });
    let inFlight = 0;
    let most = 0;
    fake.beforeAnswer = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
    };
    try {
      const statuses = await burst(token.apiKey, 200);
      expect(most).toBeLessThanOrEqual(4);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(4);
      expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    } finally {
      fake.beforeAnswer = undefined;
    }
  });

  it('keeps relaying when Redis is lost, each instance then limiting to its share', async () => {
    const token = await limitedToken({ rpm_limit: 10 });
    const stores = pair.apps.map((app) => app.switchboard.context.limitStore as FallbackLimitStore);
    // Both instances have counted each other (and any other test's processes) through their heartbeats.
    await expect.poll(() => stores.every((store) => store.sharedBy >= 2), { timeout: 10_000 }).toBe(true);
    const shares = stores.map((store) => Math.max(1, Math.floor(10 / store.sharedBy)));
    await proxy.cut();
    clock.advance(60_000);
    const statuses = await burst(token.apiKey, 100);
    // No outage: every request is answered, by the relay or by a limit of the instance it reached.
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    // Each instance allows its share of the limit (the limit over the processes last seen alive in
    // Redis: these two, and any other test's), so the pair together stays within one limit.
    const served = statuses.filter((status) => status === 200).length;
    expect(served).toBeGreaterThanOrEqual(2);
    expect(served).toBeLessThanOrEqual(shares[0]! + shares[1]!);
    expect(shares[0]! + shares[1]!).toBeLessThanOrEqual(10);
    for (const app of pair.apps) expect((app.switchboard.context.limitStore as FallbackLimitStore).isDegraded).toBe(true);
  });
});
