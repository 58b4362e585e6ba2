import { defaultChannelRouting, parseChannelRouting, type ChannelRoutingSetting, type RoutingStrategy } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { ChannelRecord, PriorityTier } from '../cache/channel-cache.ts';
import type { ChannelBreakers } from '../circuit-breaker/channel-breakers.ts';
import { selectChannel } from '../pipeline/channel-selector.ts';
import type { AttemptResult } from '../pipeline/attempt-result.ts';
import { BusyCounts } from './busy-counts.ts';
import type { BusyExchange } from './busy-sharing.ts';
import { shareBusyCounts } from './busy-sharing.ts';
import { KeyChoice } from './key-choice.ts';
import { LatencyBook } from './latency-book.ts';
import { leastBusyChooser, lowestLatencyChooser, withRoomChooser } from './strategy-choosers.ts';
import { UsageWindows } from './usage-windows.ts';

/** What one attempt counted when it began, so its end takes back exactly that. */
export interface RoutedAttempt {
  readonly channelId: number;
  readonly keyIndex: number;
  readonly beganAt: number;
  readonly busy: boolean;
}

/** How an attempt ended, as the strategies learn from it. */
export interface AttemptEnd {
  /** Milliseconds from the attempt's start to the upstream's first byte; undefined when it failed before. */
  readonly firstByteMs?: number | undefined;
  /** Tokens it used (prompt and completion), for the TPM ceilings. */
  readonly tokens?: number | undefined;
}

function readSetting(options: OptionStore): ChannelRoutingSetting {
  const parsed = safeParseJson(options.get('ChannelRoutingStrategy'));
  if (!parsed.ok) return defaultChannelRouting;
  const routing = parseChannelRouting(parsed.value);
  return routing.ok ? routing.setting : defaultChannelRouting;
}

/**
 * The channel and key of each relay attempt, by the strategy of the caller's group
 * (`ChannelRoutingStrategy`, docs/routing.md). Under the default (`weighted` everywhere) it counts
 * nothing and adds nothing to a request; what the other strategies need (in-flight counts, first-byte
 * averages, usage per minute) is counted only while some group uses them.
 */
export class ChannelRouter {
  readonly busy = new BusyCounts();
  readonly latency: LatencyBook;
  readonly usage: UsageWindows;
  private readonly keys = new KeyChoice();
  private readonly now: () => number;
  private readonly busyExchange: BusyExchange | undefined;
  private stopSharing: (() => void) | undefined;
  private setting: ChannelRoutingSetting = defaultChannelRouting;
  private used = new Set<RoutingStrategy>(['weighted']);
  private readonly leastBusy: ReturnType<typeof leastBusyChooser>;
  private readonly withRoom: ReturnType<typeof withRoomChooser>;

  constructor(dependencies: { options: OptionStore; now: () => number; busyExchange?: BusyExchange | undefined }) {
    this.now = dependencies.now;
    this.latency = new LatencyBook(dependencies.now);
    this.usage = new UsageWindows(dependencies.now);
    this.busyExchange = dependencies.busyExchange;
    this.leastBusy = leastBusyChooser(this.busy);
    this.withRoom = withRoomChooser(this.usage);
    this.apply(readSetting(dependencies.options));
    dependencies.options.onChange((key) => {
      if (key === 'ChannelRoutingStrategy') this.apply(readSetting(dependencies.options));
    });
  }

  private apply(setting: ChannelRoutingSetting): void {
    this.setting = setting;
    this.used = new Set([setting.default, ...Object.values(setting.groups)]);
    // The other processes' counts matter only while some group routes by them.
    if (this.used.has('least-busy') && this.busyExchange && !this.stopSharing) this.stopSharing = shareBusyCounts(this.busy, this.busyExchange, this.now);
    if (!this.used.has('least-busy') && this.stopSharing) {
      this.stopSharing();
      this.stopSharing = undefined;
    }
  }

  strategyOf(group: string): RoutingStrategy {
    return this.setting.groups[group] ?? this.setting.default;
  }

  /** The channel of attempt `attempt` in the caller's group (see selectChannel for tiers, retries and the breaker). */
  choose(
    tiers: readonly PriorityTier[],
    group: string,
    model: string,
    attempt: number,
    tried: ReadonlySet<number>,
    random: () => number,
    usable?: (channel: ChannelRecord) => boolean,
  ): ChannelRecord | undefined {
    switch (this.strategyOf(group)) {
      case 'weighted':
        return selectChannel(tiers, attempt, tried, random, usable);
      case 'least-busy':
        return selectChannel(tiers, attempt, tried, random, usable, this.leastBusy);
      case 'lowest-latency':
        return selectChannel(tiers, attempt, tried, random, usable, lowestLatencyChooser(this.latency, model));
      case 'usage-aware':
        // A channel with room first, in any tier; when every one is at its ceiling, as `weighted`
        // (the upstream may still answer, and a refusal moves the retry on).
        return selectChannel(tiers, attempt, tried, random, usable, this.withRoom) ?? selectChannel(tiers, attempt, tried, random, usable);
    }
  }

  /**
   * The key the attempt uses: new-api's multi-key mode when the channel has one, keys the breaker
   * has open passed over, and under `usage-aware` keys at their ceiling too. A plain channel under
   * the other strategies keeps the breaker's own pick (one random draw).
   */
  pickKey(channel: ChannelRecord, group: string, random: () => number, breakers: ChannelBreakers): number {
    const usageAware = channel.usageLimits !== undefined && this.strategyOf(group) === 'usage-aware';
    if (!channel.multiKey && !usageAware) return breakers.pickKey(channel, random);
    return this.keys.pick(channel, random, (index) => breakers.keyUsable(channel, index) && (!usageAware || this.usage.keyUnder(channel, index)));
  }

  /** Counts an attempt that is about to be sent; undefined (nothing counted) while only `weighted` is in use. */
  began(channel: ChannelRecord, keyIndex: number): RoutedAttempt | undefined {
    if (this.used.size === 1 && this.used.has('weighted')) return undefined;
    const busy = this.used.has('least-busy');
    if (busy) this.busy.started(channel.id);
    if (this.used.has('usage-aware')) this.usage.sent(channel.id, keyIndex);
    return { channelId: channel.id, keyIndex, beganAt: this.now(), busy };
  }

  /** The attempt is over (answered, failed or cut): its in-flight count ends, its first byte and tokens are learnt. */
  ended(attempt: RoutedAttempt | undefined, model: string, end: AttemptEnd): void {
    if (!attempt) return;
    if (attempt.busy) this.busy.ended(attempt.channelId);
    if (end.firstByteMs !== undefined && this.used.has('lowest-latency')) this.latency.observe(attempt.channelId, model, end.firstByteMs);
    if (end.tokens !== undefined && this.used.has('usage-aware')) this.usage.used(attempt.channelId, attempt.keyIndex, end.tokens);
  }

  close(): void {
    this.stopSharing?.();
    this.stopSharing = undefined;
  }
}

/**
 * Runs one relay attempt counted by the router: in flight while it runs, its first byte and tokens
 * learnt when it ends (also when it throws). Under `weighted` alone the attempt's own promise is
 * returned untouched.
 */
export function routedAttempt(
  router: ChannelRouter,
  channel: ChannelRecord,
  keyIndex: number,
  model: string,
  requestStartedAt: number,
  attempt: Promise<AttemptResult>,
): Promise<AttemptResult> {
  const routed = router.began(channel, keyIndex);
  if (!routed) return attempt;
  return attempt.then(
    (result) => {
      const answered = result.kind === 'charged' && result.firstResponseMs !== undefined;
      router.ended(routed, model, {
        // The answer's first byte is measured from the request's start; earlier attempts' time is not this channel's.
        firstByteMs: answered ? Math.max(0, requestStartedAt + (result.firstResponseMs as number) - routed.beganAt) : undefined,
        tokens:
          result.kind === 'charged' ? (result.usage ? result.usage.promptTokens + result.usage.completionTokens : result.localCompletionTokens) : undefined,
      });
      return result;
    },
    (error: unknown) => {
      router.ended(routed, model, {});
      throw error;
    },
  );
}
