import { ChannelStatus } from '@switchboard/contracts';
import { AppError } from '../../http/app-error.ts';
import { renderMessage } from '../../messages/catalogue.ts';
import type { OptionStore } from '../../options/option-store.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ChannelCache, ChannelRecord } from '../cache/channel-cache.ts';
import type { ChannelHealth } from './channel-health.ts';
import { channelHealthMessages } from './channel-health.messages.ts';
import type { ChannelStatusRepository } from './channel-status.repository.ts';
import { testChannel, type ChannelTestResult } from './channel-tester.ts';
import { isTaskChannelType } from '../../tasks/task-channel-types.ts';

export interface ChannelTestDependencies {
  readonly channels: ChannelCache;
  readonly health: ChannelHealth;
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
    this.repository = dependencies.repository;
    this.options = dependencies.options;
    this.clock = dependencies.clock;
    this.logger = dependencies.logger;
    this.timeoutMs = dependencies.timeoutMs;
  }

  /** Tests one channel, read fresh from the database, with the given model or the channel's test model. */
  async testOne(id: number, model: string | undefined): Promise<ChannelTestResult> {
    await this.channels.reload();
    const channel = this.channels.get(id);
    if (!channel) throw new AppError(channelHealthMessages.channelNotFound);
    if (isTaskChannelType(channel.type)) throw new AppError(channelHealthMessages.taskChannelUntestable);
    return this.run(channel, model);
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

  private async run(channel: ChannelRecord, model: string | undefined): Promise<ChannelTestResult> {
    const result = await testChannel(channel, model, this.timeoutMs, () => this.clock.now());
    await this.repository.recordTest(channel.id, result.ok ? result.elapsedMs : 0, this.clock.unixSeconds());
    const thresholdSeconds = this.options.getNumber('ChannelDisableThreshold');
    if (!result.ok && result.disablesChannel && this.health.mayDisable(channel)) await this.health.disable(channel, result.message);
    else if (result.ok && thresholdSeconds > 0 && result.elapsedMs > thresholdSeconds * 1000 && this.health.mayDisable(channel)) {
      await this.health.disable(
        channel,
        renderMessage(channelHealthMessages.tooSlow, 'en', { seconds: (result.elapsedMs / 1000).toFixed(2), threshold: thresholdSeconds }),
      );
    } else if (result.ok) await this.health.enableAfterSuccess(channel);
    return result;
  }
}
