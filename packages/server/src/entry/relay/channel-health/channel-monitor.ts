import type { Config } from '../../../core/config/config.ts';
import type { RepeatingJob } from '../../../core/jobs/job-scheduler.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChannelTestMode, ChannelTestService } from './channel-test.service.ts';

const minute = 60_000;

/**
 * When and how channels are tested, as new-api decides it: CHANNEL_TEST_FREQUENCY minutes in the
 * environment turns the test on in 'scheduled_all' mode whatever the console says; otherwise
 * monitor_setting.auto_test_channel_enabled, every monitor_setting.auto_test_channel_minutes (10),
 * in monitor_setting.channel_test_mode (anything but 'passive_recovery' means 'scheduled_all').
 * An interval of 0 means off.
 */
export function channelTestSchedule(options: OptionStore, config: Pick<Config, 'channelTestFrequencyMinutes'>): { intervalMs: number; mode: ChannelTestMode } {
  if (config.channelTestFrequencyMinutes > 0) return { intervalMs: config.channelTestFrequencyMinutes * minute, mode: 'scheduled_all' };
  const mode = options.get('monitor_setting.channel_test_mode') === 'passive_recovery' ? 'passive_recovery' : 'scheduled_all';
  if (!options.getBoolean('monitor_setting.auto_test_channel_enabled')) return { intervalMs: 0, mode };
  return { intervalMs: Math.max(1, options.getNumber('monitor_setting.auto_test_channel_minutes')) * minute, mode };
}

/**
 * The periodic channel test as a background job (run on one instance by its lease): its results
 * disable failing or slow channels, re-enable recovered ones (per the monitoring settings) and
 * serve as the circuit breakers' probes.
 */
export function channelMonitorJob(tests: ChannelTestService, options: OptionStore, config: Pick<Config, 'channelTestFrequencyMinutes'>): RepeatingJob {
  return {
    name: 'channel-test',
    intervalMs: () => channelTestSchedule(options, config).intervalMs,
    run: () => tests.testScheduled(channelTestSchedule(options, config).mode),
  };
}
