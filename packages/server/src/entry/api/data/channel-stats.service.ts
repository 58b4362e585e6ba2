import { type ChannelStatRow, LogType } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ChannelRepository } from '../channel/channel.repository.ts';
import type { ChannelStatsRepository } from './channel-stats.repository.ts';
import { readRollUpAt } from './consistent-rollup-read.ts';
import { latencyPercentile } from './latency-buckets.ts';

const hour = 3600;
const wholeSeconds = (milliseconds: number | null) => (milliseconds === null ? null : Math.ceil(milliseconds / 1000));
const day = 86_400;

interface ChannelTotals {
  calls: number;
  errors: number;
  quota: number;
  latencies: Map<number, number>;
}

/**
 * The dashboard's per-channel view: calls, errors, cost and latency percentiles per channel over the
 * hours starting in [from, to], live to the newest log: the roll-up (0023) counts logs up to its
 * watermark and the logs after it are read directly, so a call shows up as soon as its log is written.
 */
export class ChannelStatsService {
  private readonly repository: ChannelStatsRepository;
  private readonly channels: Pick<ChannelRepository, 'namesOf'>;
  private readonly clock: Clock;

  constructor(dependencies: { repository: ChannelStatsRepository; channels: Pick<ChannelRepository, 'namesOf'>; clock: Clock }) {
    this.repository = dependencies.repository;
    this.channels = dependencies.channels;
    this.clock = dependencies.clock;
  }

  /** Either end may be absent: then up to now, over the last day (as the usage charts). */
  async perChannel(range: { from?: number | undefined; to?: number | undefined }): Promise<ChannelStatRow[]> {
    const to = range.to ?? this.clock.unixSeconds();
    const fromBucket = Math.ceil((range.from ?? to - day) / hour) * hour;
    const toBucket = to - (to % hour);
    if (toBucket < fromBucket) return [];
    const rolled = await readRollUpAt(
      () => this.repository.readWatermark(),
      () => this.repository.rolledUp(fromBucket, toBucket),
    );
    const newest = await this.repository.newest(rolled.watermark, { from: fromBucket, to: toBucket + hour });
    const totals = new Map<number, ChannelTotals>();
    for (const sums of [...rolled.rows, ...newest]) {
      const channel = totals.get(sums.channel_id) ?? { calls: 0, errors: 0, quota: 0, latencies: new Map<number, number>() };
      channel.calls += sums.count;
      if (sums.type === LogType.error) channel.errors += sums.count;
      else {
        channel.quota += sums.quota;
        channel.latencies.set(sums.latency, (channel.latencies.get(sums.latency) ?? 0) + sums.count);
      }
      totals.set(sums.channel_id, channel);
    }
    const names = await this.channels.namesOf([...totals.keys()].filter((id) => id > 0));
    return [...totals.entries()]
      .map(([channelId, channel]) => {
        const p50 = latencyPercentile(channel.latencies, 0.5) ?? null;
        const p90 = latencyPercentile(channel.latencies, 0.9) ?? null;
        const p99 = latencyPercentile(channel.latencies, 0.99) ?? null;
        return {
          channel_id: channelId,
          channel_name: names.get(channelId) ?? '',
          calls: channel.calls,
          errors: channel.errors,
          quota: channel.quota,
          latency_p50: wholeSeconds(p50),
          latency_p90: wholeSeconds(p90),
          latency_p99: wholeSeconds(p99),
          latency_p50_ms: p50,
          latency_p90_ms: p90,
          latency_p99_ms: p99,
        };
      })
      .sort((left, right) => right.calls - left.calls || left.channel_id - right.channel_id);
  }
}
