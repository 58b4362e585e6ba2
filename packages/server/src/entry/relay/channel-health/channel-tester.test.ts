import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../cache/channel-cache.ts';
import { providerForChannelType } from '../providers/index.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { testChannel } from './channel-tester.ts';

describe('testChannel', () => {
  const fake = new FakeOpenAIUpstream();
  let channel: ChannelRecord;

  beforeAll(async () => {
    await fake.start();
    channel = {
      id: 1,
      type: 1,
      name: 'local',
      status: 1,
      keys: ['sk-local'],
      baseUrl: fake.baseUrl,
      organization: '',
      other: '',
      modelMapping: {},
      statusCodeMapping: {},
      autoBan: true,
      priority: 0,
      weight: 0,
      testModel: '',
      models: ['gpt-4o-mini'],
      groups: ['default'],
      otherInfo: '',
      provider: providerForChannelType(1),
    };
  });
  afterAll(() => fake.stop());

  // The list shows 0 ms as "not tested": an upstream that answers within the clock's millisecond
  // (a local one, a warm connection) must still read as tested.
  it('reports at least one millisecond for a passing test', async () => {
    const frozenClock = () => 1_700_000_000_000;
    const result = await testChannel(channel, undefined, 5_000, frozenClock);
    expect(result).toMatchObject({ ok: true, elapsedMs: 1 });
  });

  it('reports a failure with no response time to record', async () => {
    fake.behave('sk-local', 'status-401');
    const result = await testChannel(channel, undefined, 5_000, () => 0);
    expect(result.ok).toBe(false);
    fake.behave('sk-local', 'ok');
  });
});
