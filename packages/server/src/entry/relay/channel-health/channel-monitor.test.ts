import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { seedChannel } from '../testing/relay-seed.ts';
import { channelMonitorJob, channelTestSchedule } from './channel-monitor.ts';
import { ChannelStatusRepository } from './channel-status.repository.ts';
import { ChannelTestService } from './channel-test.service.ts';

/** Time moves only when the test (or the fake upstream, to play a slow answer) moves it. */
function handClock(): Clock & { advance(ms: number): void } {
  let ms = Date.now();
  return {
    now: () => ms,
    unixSeconds: () => Math.floor(ms / 1000),
    advance: (by) => {
      ms += by;
    },
  };
}

describe.each(testDatabases())('periodic channel test on $dialect', (database) => {
  const clock = handClock();
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let tests: ChannelTestService;
  const noEnvironment = { channelTestFrequencyMinutes: 0 };

  const statusOf = async (id: number) =>
    (await testApp.context.database.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    // A 'slow-' key answers six seconds later on the test's clock: over ChannelDisableThreshold (5 s).
    fake.beforeAnswer = async () => {
      if (fake.requests.at(-1)?.key.startsWith('slow-')) clock.advance(6_000);
    };
    testApp = await createTestApp(database, {}, clock);
    const relay = testApp.app.relay;
    tests = new ChannelTestService({
      channels: relay.channels,
      health: relay.health,
      breakers: relay.breakers,
      repository: new ChannelStatusRepository(testApp.context.database.db),
      options: testApp.context.options,
      clock,
      logger: testApp.context.logger,
      timeoutMs: 5_000,
    });
    await testApp.context.options.set('AutomaticDisableChannelEnabled', 'true');
    await testApp.context.options.set('AutomaticEnableChannelEnabled', 'true');
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('is scheduled by CHANNEL_TEST_FREQUENCY, else by the monitor settings', async () => {
    const options = testApp.context.options;
    expect(channelTestSchedule(options, noEnvironment).intervalMs).toBe(0);
    await options.set('monitor_setting.auto_test_channel_enabled', 'true');
    await options.set('monitor_setting.auto_test_channel_minutes', '7');
    await options.set('monitor_setting.channel_test_mode', 'passive_recovery');
    expect(channelTestSchedule(options, noEnvironment)).toEqual({ intervalMs: 7 * 60_000, mode: 'passive_recovery' });
    // The environment wins, in new-api's scheduled_all mode.
    expect(channelTestSchedule(options, { channelTestFrequencyMinutes: 3 })).toEqual({ intervalMs: 3 * 60_000, mode: 'scheduled_all' });
    await options.set('monitor_setting.auto_test_channel_enabled', 'false');
    expect(channelMonitorJob(tests, options, noEnvironment).intervalMs()).toBe(0);
  });

  it('tests every channel not disabled by hand: disables the slow one, re-enables the recovered one', async () => {
    await testApp.context.options.set('monitor_setting.channel_test_mode', 'scheduled_all');
    fake.behave('all-failing', 'status-500');
    const healthy = await seedChannel(testApp, { key: 'all-healthy', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    const slow = await seedChannel(testApp, { key: 'slow-all', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    const failing = await seedChannel(testApp, { key: 'all-failing', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    const recovered = await seedChannel(testApp, { key: 'all-recovered', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'], status: ChannelStatus.autoDisabled });
    const manual = await seedChannel(testApp, { key: 'all-manual', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'], status: ChannelStatus.manuallyDisabled });

    await channelMonitorJob(tests, testApp.context.options, { channelTestFrequencyMinutes: 10 }).run();
    await testApp.app.relay.health.settled();

    for (const key of ['all-healthy', 'slow-all', 'all-failing', 'all-recovered']) expect(fake.requestsFor(key)).toHaveLength(1);
    expect(fake.requestsFor('all-manual')).toHaveLength(0);
    expect(await statusOf(healthy)).toBe(ChannelStatus.enabled);
    expect(await statusOf(slow)).toBe(ChannelStatus.autoDisabled);
    // A 500 is transient: counted by the breaker, never a reason to disable.
    expect(await statusOf(failing)).toBe(ChannelStatus.enabled);
    expect(await statusOf(recovered)).toBe(ChannelStatus.enabled);
    expect(await statusOf(manual)).toBe(ChannelStatus.manuallyDisabled);
  });

  it('in passive_recovery tests only channels waiting to recover, and its test is the breaker probe', async () => {
    await testApp.context.options.set('monitor_setting.channel_test_mode', 'passive_recovery');
    await testApp.context.options.set('ChannelBreakerConsecutiveFailures', '2');
    const breakers = testApp.app.relay.breakers;
    const healthy = await seedChannel(testApp, { key: 'passive-healthy', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    const broken = await seedChannel(testApp, { key: 'passive-broken', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    const waiting = await seedChannel(testApp, { key: 'passive-waiting', baseUrl: fake.baseUrl, models: ['gpt-4o-mini'], status: ChannelStatus.autoDisabled });
    const brokenChannel = testApp.app.relay.channels.get(broken);
    if (!brokenChannel) throw new Error('channel missing');
    breakers.record(brokenChannel, 0, 'failure');
    breakers.record(brokenChannel, 0, 'failure');
    expect(breakers.usable(brokenChannel)).toBe(false);

    const job = channelMonitorJob(tests, testApp.context.options, noEnvironment);
    await job.run();

    expect(fake.requestsFor('passive-healthy')).toHaveLength(0);
    expect(fake.requestsFor('passive-broken')).toHaveLength(1);
    expect(fake.requestsFor('passive-waiting')).toHaveLength(1);
    // The upstream answered: the breaker closed without waiting for its cool-down.
    expect(breakers.openKeys(broken)).toEqual([]);
    expect(await statusOf(waiting)).toBe(ChannelStatus.enabled);
    expect(await statusOf(healthy)).toBe(ChannelStatus.enabled);
  });
});
