import type { LogFilters } from './log-filters.ts';
import type { LogRepository, LogRow } from './log.repository.ts';

const hour = 3600;
/** Up to this many logs after a roll-up's watermark (minutes of traffic) are read directly; more means it is catching up. */
const boundedNewestLogs = 50_000;

/** What the page needs of an hourly roll-up to find a filter's rows (see LogHourlyRepository). */
export interface HourlyPresence {
  /** Seconds per bucket: the page reads the hourly tables only (the daily per-user ones serve totals). */
  readonly bucketSeconds: number;
  /** Whether every filter set is one of its key columns, the type or the time. */
  covers(filters: LogFilters): boolean;
  /** Logs with an id up to this are counted in it. */
  readWatermark(): Promise<number>;
  /** Logs of the filters per whole hour in [fromBucket, toBucket), newest first, at most `hours` of them. */
  countsPerHour(filters: LogFilters, fromBucket: number, toBucket: number, hours: number): Promise<Array<{ bucket: number; count: number }>>;
}

/** A filter's time range: the whole hours in [fromBucket, toBucket) are counted in the roll-up. */
interface CountedRange {
  start: number;
  end: number;
  fromBucket: number;
  toBucket: number;
}

/** Hours read from the roll-up at first; each further read takes four times as many. */
const firstHours = 24;

/** A stretch of creation times (both ends included) and, when a roll-up knows it, how many logs of the filters it holds. */
interface Stretch {
  start: number;
  end: number | undefined;
  count: number | undefined;
}

/** The filters that have no index of their own on the logs table (migration 0032 dropped theirs). */
const rolledUpFilters = ['modelName', 'channelId', 'group'] as const satisfies ReadonlyArray<keyof LogFilters>;

/**
 * The log page (newest first by creation time, then id) for filters without an index of their own:
 * model, channel and group. The hourly roll-up says which hours hold that filter's logs and how many,
 * so the page skips whole hours by their counts and reads only the hours it shows, each a short range
 * of the `(created_at, id)` index. The hours the roll-up has not counted completely (from the hour of
 * the earliest log after its watermark) and the partial hours at the ends of the time range are read
 * from the logs. The rows are exactly those of one query over the whole range, in the same order.
 * Other filters (user, token, type, none) have their own index and go straight to the logs.
 */
export class LogPageLocator {
  private readonly logs: LogRepository;
  private readonly hourly: readonly HourlyPresence[];

  constructor(logs: LogRepository, hourly: readonly HourlyPresence[]) {
    this.logs = logs;
    this.hourly = hourly;
  }

  async page(filters: LogFilters, offset: number, limit: number): Promise<LogRow[]> {
    const located = await this.locate(filters);
    if (!located) return this.logs.page(filters, offset, limit);
    const rows: LogRow[] = [];
    let skip = offset;
    for await (const stretch of this.stretches(located.hourly, filters, located.range)) {
      const within: LogFilters = { ...filters, start: stretch.start, end: stretch.end };
      // A stretch the roll-up does not count is counted only when the page starts beyond it.
      const count = stretch.count ?? (skip > 0 ? await this.logs.count(within) : undefined);
      if (count !== undefined && skip >= count) {
        skip -= count;
        continue;
      }
      rows.push(...(await this.logs.page(within, skip, limit - rows.length)));
      skip = 0;
      if (rows.length >= limit) break;
    }
    return rows;
  }

  /**
   * The filters narrowed to the time ranges that may hold their logs, newest first, adjacent hours
   * joined: what the CSV export reads in keyset batches, so a month's export of a rarely used model
   * reads the hours it was used in, not every log of the month. The filters unchanged when no roll-up
   * serves them (or one is catching up).
   */
  async *ranges(filters: LogFilters): AsyncGenerator<LogFilters> {
    const located = await this.locate(filters);
    if (!located) {
      yield filters;
      return;
    }
    let pending: { start: number; end: number | undefined } | undefined;
    for await (const stretch of this.stretches(located.hourly, filters, located.range)) {
      if (stretch.count === 0) continue;
      // Stretches come newest first: an older one that ends where the pending one starts extends it.
      if (pending && stretch.end !== undefined && stretch.end + 1 === pending.start) {
        pending.start = stretch.start;
        continue;
      }
      if (pending) yield { ...filters, start: pending.start, end: pending.end };
      pending = { start: stretch.start, end: stretch.end };
    }
    if (pending) yield { ...filters, start: pending.start, end: pending.end };
  }

  /** The roll-up that knows the filters' hours, and the range it counts; undefined when the logs must be read directly. */
  private async locate(filters: LogFilters): Promise<{ hourly: HourlyPresence; range: CountedRange } | undefined> {
    const hourly = rolledUpFilters.some((filter) => filters[filter] !== undefined)
      ? this.hourly.find((table) => table.bucketSeconds === hour && table.covers(filters))
      : undefined;
    const range = hourly ? await this.rangeOf(hourly, filters) : undefined;
    return hourly && range ? { hourly, range } : undefined;
  }

  /** The filters' time range and the whole hours of it the roll-up has counted; undefined while it is catching up. */
  private async rangeOf(hourly: HourlyPresence, filters: LogFilters): Promise<CountedRange | undefined> {
    const watermark = await hourly.readWatermark();
    const newest = await this.logs.newest(watermark, boundedNewestLogs);
    if (newest.count >= boundedNewestLogs) return undefined;
    const start = filters.start ?? 0;
    const end = filters.end ?? Number.POSITIVE_INFINITY;
    // Every log after the watermark was created at or after `newest.earliestCreatedAt`, so the hours
    // before that one are counted completely.
    const counted = newest.count === 0 ? Number.POSITIVE_INFINITY : newest.earliestCreatedAt - (newest.earliestCreatedAt % hour);
    return { start, end, fromBucket: Math.ceil(start / hour) * hour, toBucket: Math.min(counted, Math.floor((end + 1) / hour) * hour) };
  }

  /**
   * The range cut into stretches, newest first: the hours not counted completely (read directly), the
   * counted whole hours that have logs of the filters (read from the roll-up a few at a time, so a
   * first page of a common filter reads a day of hours, not a month), and the partial first hour.
   */
  private async *stretches(hourly: HourlyPresence, filters: LogFilters, range: CountedRange): AsyncGenerator<Stretch> {
    const { start, end, fromBucket, toBucket } = range;
    const tailStart = Math.max(toBucket, start);
    if (Number.isFinite(tailStart) && tailStart <= end) yield { start: tailStart, end: filters.end, count: undefined };
    let before = toBucket;
    for (let hours = firstHours; fromBucket < before; hours *= 4) {
      const counts = await hourly.countsPerHour(filters, fromBucket, before, hours);
      for (const { bucket, count } of counts) yield { start: bucket, end: bucket + hour - 1, count };
      if (counts.length < hours) break;
      before = counts[counts.length - 1]?.bucket ?? fromBucket;
    }
    const headEnd = Math.min(fromBucket, tailStart) - 1;
    if (start <= headEnd) yield { start, end: headEnd, count: undefined };
  }
}
