import { ChannelStatus } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import { renderMessage } from '../../../core/messages/catalogue.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import type { ChannelCache, ChannelRecord } from '../cache/channel-cache.ts';
import type { ChannelBreakers } from '../circuit-breaker/channel-breakers.ts';
import type { ChannelHealth } from './channel-health.ts';
import { channelHealthMessages } from './channel-health.messages.ts';
import type { ChannelStatusRepository } from './channel-status.repository.ts';
import { testChannel, testModelOf, type ChannelTestResult } from './channel-tester.ts';
import { readPriceTables } from '../../../domain/billing/price-tables.ts';
import { hasPrice } from '../../../domain/billing/pricing.ts';
import { isTaskChannelType } from '../task-channel-types.ts';

/** new-api's monitor_setting.channel_test_mode. */
export type ChannelTestMode = 'scheduled_all' | 'passive_recovery';

export interface ChannelTestDependencies {
  readonly channels: ChannelCache;
  readonly health: ChannelHealth;
  readonly breakers: ChannelBreakers;
  readonly repository: ChannelStatusRepository;
  readonly options: OptionStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long one test request may take. */
  readonly timeoutMs: number;
}

/**
 * Channel tests and the health rules they apply: a dead-credential failure or a response slower than
 * ChannelDisableThreshold disables an enabled channel (when automatic disabling is on); a success
 * re-enables an auto-disabled one (when automatic enabling is on). Every test records its response time.
 */
export class ChannelTestService {
  private readonly channels: ChannelCache;
  private readonly health: ChannelHealth;
  private readonly breakers: ChannelBreakers;
  private readonly repository: ChannelStatusRepository;
  private readonly options: OptionStore;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  /** One test-all run at a time per instance. */
  private running = false;

  constructor(dependencies: ChannelTestDependencies) {
    this.channels = dependencies.channels;
    this.health = dependencies.health;
    this.breakers = dependencies.breakers;
    this.repository = dependencies.repository;
    this.options = dependencies.options;
    this.clock = dependencies.clock;
    this.logger = dependencies.logger;
    this.timeoutMs = dependencies.timeoutMs;
  }

  /**
   * Tests one channel, read fresh from the database, with the given model or the channel's test model.
   * Says which model was tested and whether callers would be refused it for lack of a price: a test
   * sends straight to the upstream and bills nothing, so it passes for a model nobody can call.
   */
  async testOne(id: number, model: string | undefined): Promise<ChannelTestResult & { model: string; unpriced: boolean }> {
    await this.channels.reload();
    const channel = this.channels.get(id);
    if (!channel) throw new AppError(channelHealthMessages.channelNotFound);
    if (isTaskChannelType(channel.type)) throw new AppError(channelHealthMessages.taskChannelUntestable);
    const tested = testModelOf(channel, model);
    const unpriced = !this.options.getBoolean('SelfUseModeEnabled') && !hasPrice(readPriceTables(this.options), tested);
    return { ...(await this.run(channel, model)), model: tested, unpriced };
  }

  /** Starts testing every enabled and auto-disabled channel in the background; false while a run is still going. */
  startAll(): boolean {
    if (this.running) return false;
    this.running = true;
    const channels = this.channels
      .all()
      .filter((channel) => (channel.status === ChannelStatus.enabled || channel.status === ChannelStatus.autoDisabled) && !isTaskChannelType(channel.type));
    void (async () => {
      for (const channel of channels)
        await this.run(channel, undefined).catch((error: unknown) => this.logger.warn({ err: error, channelId: channel.id }, 'channel test failed'));
    })().finally(() => {
      this.running = false;
    });
    return true;
  }

  /**
   * The periodic test (jobs run it on one instance): 'scheduled_all' tests every channel not disabled
   * by hand; 'passive_recovery' only those waiting to recover, the auto-disabled ones and those whose
   * breaker is open. A channel with open keys has each of them tested: the test is their probe.
   * Awaited to the end, so the job's lease covers the whole run. Answers how many tests ran.
   */
  async testScheduled(mode: ChannelTestMode): Promise<number> {
    await this.channels.reload();
    const broken = new Set(this.breakers.snapshot((id) => this.channels.get(id)?.keys.length).map((view) => view.channel_id));
    const channels = this.channels
      .all()
      .filter((channel) => !isTaskChannelType(channel.type))
      .filter((channel) =>
        mode === 'passive_recovery'
          ? channel.status === ChannelStatus.autoDisabled || (channel.status === ChannelStatus.enabled && broken.has(channel.id))
          : channel.status === ChannelStatus.enabled || channel.status === ChannelStatus.autoDisabled,
      );
    let tests = 0;
    for (const channel of channels) {
      const openKeys = this.breakers.openKeys(channel.id).filter((index) => index > 0 && index < channel.keys.length);
      for (const keyIndex of [0, ...openKeys]) {
        await this.run(channel, undefined, keyIndex).catch((error: unknown) => this.logger.warn({ err: error, channelId: channel.id }, 'channel test failed'));
        tests += 1;
      }
    }
    return tests;
  }

  private async run(channel: ChannelRecord, model: string | undefined, keyIndex = 0): Promise<ChannelTestResult> {
    const result = await testChannel(channel, model, this.timeoutMs, () => this.clock.now(), keyIndex);
    // A test is the breaker's probe too: an answer closes the key's circuit, a failure keeps it open.
    if (result.notRelayedReason === undefined) this.breakers.record(channel, keyIndex, result.ok ? 'success' : 'failure');
    await this.repository.recordTest(channel.id, result.ok ? result.elapsedMs : 0, this.clock.unixSeconds());
    const thresholdSeconds = this.options.getNumber('ChannelDisableThreshold');
    // Too slow is a failed test, as in new-api: it disables an enabled channel and never re-enables one.
    const tooSlow = result.ok && thresholdSeconds > 0 && result.elapsedMs > thresholdSeconds * 1000;
    if (!result.ok && result.disablesChannel && this.health.mayDisable(channel)) await this.health.disable(channel, result.message);
    else if (tooSlow && this.health.mayDisable(channel)) {
      await this.health.disable(
        channel,
        renderMessage(channelHealthMessages.tooSlow, 'en', { seconds: (result.elapsedMs / 1000).toFixed(2), threshold: thresholdSeconds }),
      );
    } else if (result.ok && !tooSlow) await this.health.enableAfterSuccess(channel);
    return result;
  }
}
