import { LogType } from '@switchboard/contracts';
import type { LogFilters } from './log-filters.ts';
import type { LogHourlyRepository } from './log-hourly.repository.ts';
import type { LogRepository } from './log.repository.ts';

export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

const hour = 3600;
/** Below this many whole hours the logs table answers directly (a few hours of rows are cheap). */
const minimumRolledHours = 3;

type Measure = 'count' | 'quota';

/**
 * Totals and stats of the log page, exact at any table size. Over a long range without per-user,
 * token, channel or group filters they come from three disjoint parts: the hourly totals for whole
 * hours (logs up to the roll-up watermark), the logs of those hours newer than the watermark, and
 * the logs of the partial hours at either end of the range.
 */
export class LogTotals {
  private readonly logs: LogRepository;
  private readonly hourly: LogHourlyRepository;

  constructor(logs: LogRepository, hourly: LogHourlyRepository) {
    this.logs = logs;
    this.hourly = hourly;
  }

  private raw(filters: LogFilters, measure: Measure, afterId?: number): Promise<number> {
    return measure === 'count' ? this.logs.count(filters, afterId) : this.logs.quotaSum(filters, afterId);
  }

  async measure(filters: LogFilters, measure: Measure): Promise<number> {
    const rollable = filters.userId === undefined && filters.username === undefined && filters.tokenName === undefined && filters.channelId === undefined && filters.group === undefined;
    const fromBucket = filters.start === undefined ? 0 : Math.ceil(filters.start / hour) * hour;
    const toBucket = filters.end === undefined ? Number.POSITIVE_INFINITY : Math.floor((filters.end + 1) / hour) * hour;
    if (!rollable || toBucket - fromBucket < minimumRolledHours * hour) return this.raw(filters, measure);

    const watermark = await this.hourly.readWatermark();
    const parts: Array<Promise<number>> = [
      this.hourly.sum(filters, fromBucket, toBucket).then((sum) => sum[measure]),
      this.raw({ ...filters, start: fromBucket, end: Number.isFinite(toBucket) ? toBucket - 1 : undefined }, measure, watermark),
    ];
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
