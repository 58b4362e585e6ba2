import { type LogStat, LogType } from '@switchboard/contracts';
import type { LogFilters } from './log-filters.ts';
import type { LogRepository } from './log.repository.ts';

/** Below this many whole buckets the logs table answers directly (a few hours, or days of one user, are cheap). */
const minimumRolledBuckets = 3;
/** Up to this many logs after a watermark (minutes of traffic) are bounded by their creation time. */
const boundedNewestLogs = 50_000;

type Measure = 'count' | 'quota';

/** A roll-up of the logs, as the totals read it (see LogHourlyRepository). */
export interface HourlyTotals {
  /** Seconds per bucket (an hour, or a day): its sums are per whole bucket. */
  readonly bucketSeconds: number;
  /** Whether every filter set is one of its key columns, the type or the time. */
  covers(filters: LogFilters): boolean;
  /** Logs with an id up to this are counted in it. */
  readWatermark(): Promise<number>;
  sum(filters: LogFilters, fromBucket: number, toBucket: number): Promise<{ count: number; quota: number }>;
}

/**
 * Totals and stats of the log page, exact at any table size. Over a long range whose filters a
 * roll-up covers (per hour: type and model; or type, channel and group; per day: type, user and model,
 * or type, user and token name) they come from three disjoint parts: that table's totals for whole
 * buckets (logs up to its own watermark), the logs of those buckets newer than the watermark, and the
 * logs of the partial buckets at either end. Other combinations (a user with a channel or group, a
 * token name with a model) are counted in the logs' own indexes.
 */
export class LogTotals {
  private readonly logs: LogRepository;
  private readonly hourly: readonly HourlyTotals[];

  /** `hourly` in order of preference: the first table that covers a query answers it. */
  constructor(logs: LogRepository, hourly: readonly HourlyTotals[]) {
    this.logs = logs;
    this.hourly = hourly;
  }

  private raw(filters: LogFilters, measure: Measure, afterId?: number): Promise<number> {
    return measure === 'count' ? this.logs.count(filters, afterId) : this.logs.quotaSum(filters, afterId);
  }

  async measure(filters: LogFilters, measure: Measure): Promise<number> {
    const hourly = this.hourly.find((table) => table.covers(filters));
    if (!hourly) return this.raw(filters, measure);
    const size = hourly.bucketSeconds;
    const fromBucket = filters.start === undefined ? 0 : Math.ceil(filters.start / size) * size;
    const toBucket = filters.end === undefined ? Number.POSITIVE_INFINITY : Math.floor((filters.end + 1) / size) * size;
    if (toBucket - fromBucket < minimumRolledBuckets * size) return this.raw(filters, measure);

    const watermark = await hourly.readWatermark();
    const newest = await this.logs.newest(watermark, boundedNewestLogs);
    const parts: Array<Promise<number>> = [hourly.sum(filters, fromBucket, toBucket).then((sum) => sum[measure])];
    if (newest.count > 0) {
      // The logs after the watermark are recent: starting at the earliest of them, a filter's
      // (column, created_at, id) index reads only those, not every row of a common group or model.
      const start = newest.count < boundedNewestLogs ? Math.max(fromBucket, newest.earliestCreatedAt) : fromBucket;
      parts.push(this.raw({ ...filters, start, end: Number.isFinite(toBucket) ? toBucket - 1 : undefined }, measure, watermark));
    }
    if (filters.start !== undefined && filters.start < fromBucket) parts.push(this.raw({ ...filters, end: fromBucket - 1 }, measure));
    if (filters.end !== undefined && toBucket <= filters.end) parts.push(this.raw({ ...filters, start: toBucket }, measure));
    return (await Promise.all(parts)).reduce((sum, part) => sum + part, 0);
  }

  count(filters: LogFilters): Promise<number> {
    return this.measure(filters, 'count');
  }

  /** Quota over the filters (consumption only), requests and tokens of the last minute. */
  async stat(filters: LogFilters, now: number): Promise<LogStat> {
    const [quota, rate] = await Promise.all([this.measure({ ...filters, type: LogType.consume }, 'quota'), this.logs.lastMinute(filters, now)]);
    return { quota, ...rate };
  }
}
