import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoInstances, type TwoInstances } from '../../testing/two-instances.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** Two instances on one database and one Redis: a setting saved on one is live on the other at once. */
describe.runIf(redisUrl)('options across instances through Redis', () => {
  let instances: TwoInstances;
  let apps: readonly FastifyInstance[] = [];

  beforeAll(async () => {
    instances = await startTwoInstances(redisUrl ?? '');
    apps = instances.apps;
  });

  afterAll(async () => {
    await instances.close();
  });

  it('propagates a change within a second, not at the next periodic reload', async () => {
    const [first, second] = apps;
    if (!first || !second) throw new Error('apps missing');
    await first.switchboard.context.options.set('SystemName', 'Propagated');
    const deadline = Date.now() + 1000;
    while (second.switchboard.context.options.get('SystemName') !== 'Propagated' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(second.switchboard.context.options.get('SystemName')).toBe('Propagated');
    const status = (await second.inject({ method: 'GET', url: '/api/status' })).json();
    expect(status.data.system_name).toBe('Propagated');
  });
});
