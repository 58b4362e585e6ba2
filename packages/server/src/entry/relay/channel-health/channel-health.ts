import { ChannelStatus } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { ChannelCache, ChannelRecord } from '../cache/channel-cache.ts';
import type { ChannelStatusRepository } from './channel-status.repository.ts';

/** Sends the root administrator a notice; absent or failing mail never blocks the relay. */
export type RootNotifier = (subject: string, html: string) => Promise<void>;

function withStatusReason(otherInfo: string, reason: string, time: number): string {
  const parsed = safeParseJson(otherInfo || '{}');
  const base =
    parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : {};
  return JSON.stringify({ ...base, status_reason: reason, status_time: time });
}

/**
 * Automatic channel disable and enable. A disable takes the channel out of routing in memory at
 * once (so no request still in this process picks it), then writes channels.status = 3 with the
 * reason and time in other_info, flips its abilities off, tells the other instances and mails root.
 * Only auto-disabled channels (3) are ever re-enabled automatically, never manually disabled ones.
 */
export class ChannelHealth {
  private readonly channels: ChannelCache;
  private readonly repository: ChannelStatusRepository;
  private readonly options: OptionStore;
  private readonly bus: ChangeBus;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly notify: RootNotifier;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(dependencies: {
    channels: ChannelCache;
    repository: ChannelStatusRepository;
    options: OptionStore;
    bus: ChangeBus;
    clock: Clock;
    logger: Logger;
    notify: RootNotifier;
  }) {
    this.channels = dependencies.channels;
    this.repository = dependencies.repository;
    this.options = dependencies.options;
    this.bus = dependencies.bus;
    this.clock = dependencies.clock;
    this.logger = dependencies.logger;
    this.notify = dependencies.notify;
  }

  /** Whether a failure may disable this channel (AutomaticDisableChannelEnabled and its auto_ban). */
  mayDisable(channel: ChannelRecord): boolean {
    return this.options.getBoolean('AutomaticDisableChannelEnabled') && channel.autoBan && channel.status === ChannelStatus.enabled;
  }

  /** After a relay error that says the credentials are dead; runs in the background. */
  disableAfterError(channel: ChannelRecord, reason: string): void {
    if (!this.mayDisable(channel)) return;
    const write = this.disable(channel, reason)
      .catch((error: unknown) => this.logger.error({ err: error, channelId: channel.id }, 'channel auto-disable failed'))
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  /** Resolves once every background disable started so far is written (shutdown, tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  async disable(channel: ChannelRecord, reason: string): Promise<void> {
    const now = this.clock.unixSeconds();
    const otherInfo = withStatusReason(channel.otherInfo, reason, now);
    this.channels.setStatus(channel.id, ChannelStatus.autoDisabled, otherInfo);
    try {
      await this.repository.setStatus(channel.id, ChannelStatus.autoDisabled, otherInfo, false);
    } finally {
      this.channels.statusWritten(channel.id);
    }
    await this.bus.publish(changeTopics.channels, String(channel.id));
    this.logger.warn({ channelId: channel.id, reason }, 'channel disabled automatically');
    void this.notify(
      `Channel "${channel.name}" (#${channel.id}) has been disabled`,
      `<p>Channel "${channel.name}" (#${channel.id}) was disabled automatically.</p><p>Reason: ${escapeHtml(reason)}</p>`,
    ).catch(() => undefined);
  }

  /** Re-enables an auto-disabled channel after a successful test when AutomaticEnableChannelEnabled. */
  async enableAfterSuccess(channel: ChannelRecord): Promise<boolean> {
    if (channel.status !== ChannelStatus.autoDisabled || !this.options.getBoolean('AutomaticEnableChannelEnabled')) return false;
    const otherInfo = withStatusReason(channel.otherInfo, '', this.clock.unixSeconds());
    await this.repository.setStatus(channel.id, ChannelStatus.enabled, otherInfo, true);
    await this.bus.publish(changeTopics.channels, String(channel.id));
    await this.channels.reload();
    void this.notify(
      `Channel "${channel.name}" (#${channel.id}) has been enabled`,
      `<p>Channel "${channel.name}" (#${channel.id}) passed its test and was enabled again.</p>`,
    ).catch(() => undefined);
    return true;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[character] ?? character);
}
