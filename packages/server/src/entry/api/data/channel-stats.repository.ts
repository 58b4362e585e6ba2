import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { LogType } from '@switchboard/contracts';
import { inTransaction } from '../../../core/db/in-transaction.ts';
import { columnThrough, type LogsReadThrough } from '../../../core/db/off-index.ts';
import type { LogHourlyChannelLatencyTable } from '../../../core/db/log-schema.ts';
import type { Database } from '../../../core/db/schema.ts';
import type { LogCursorAggregation } from '../../../domain/logs/log-cursor-aggregation.ts';
import { latencyBucketOf, logDurationMs } from './latency-buckets.ts';

/** The cursor of the milliseconds roll-up (migration 0028); 0023's seconds roll-up had its own. */
export const channelLatencyJobName = 'log_hourly_channel_latency_ms';
const rollUpTable = 'switchboard_log_hourly_channel_latency_ms';

/** One channel's calls of one type in one hour (or over a range) within one latency bucket. */
export type ChannelLatencyTotals = LogHourlyChannelLatencyTable;
export type ChannelLatencySums = Omit<ChannelLatencyTotals, 'bucket'>;

const countedTypes = [LogType.consume, LogType.error];
const toNumber = (value: unknown) => Number(value ?? 0);

interface CountedLog {
  created_at: number | string;
  channel_id: number | string;
  type: number | string;
  use_time: number | string;
  quota: number | string;
  other: string | null;
}

/** Logs that carry their milliseconds (`other.use_time_ms`, written by the relay since 0028). */
const withMilliseconds = (eb: ExpressionBuilder<Database, 'logs'>) => eb('other', 'like', '%"use_time_ms":%');
const withoutMilliseconds = (eb: ExpressionBuilder<Database, 'logs'>) => eb.or([eb('other', 'is', null), eb('other', 'not like', '%"use_time_ms":%')]);
const hourBucket = sql<number>`${sql.ref('created_at')} - (${sql.ref('created_at')} % 3600)`;
type LogScope = (eb: ExpressionBuilder<Database, 'logs'>) => Expression<SqlBool>;

/**
 * Sums logs per (hour when `byHour`), channel, type and latency bucket. Errors have no latency: they
 * count in bucket 0. Logs with milliseconds come one by one (their `other` text cannot be read alike
 * by SQL on the three engines), a roll-up step's or a minute's worth; older ones come summed per
 * whole second of use_time, so a large imported table is still summed by the database.
 */
function sumLogs(logs: ReadonlyArray<CountedLog & { count?: number | string }>, byHour: boolean): ChannelLatencyTotals[] {
  const sums = new Map<string, ChannelLatencyTotals>();
  for (const log of logs) {
    const createdAt = toNumber(log.created_at);
    const bucket = byHour ? createdAt - (createdAt % 3600) : 0;
    const type = toNumber(log.type);
    const latency = type === LogType.error ? 0 : latencyBucketOf(logDurationMs({ use_time: toNumber(log.use_time), other: log.other }));
    const channelId = toNumber(log.channel_id);
    const key = `${bucket}:${channelId}:${type}:${latency}`;
    const row = sums.get(key) ?? { bucket, channel_id: channelId, type, latency, count: 0, quota: 0 };
    row.count += log.count === undefined ? 1 : toNumber(log.count);
    row.quota += toNumber(log.quota);
    sums.set(key, row);
  }
  return [...sums.values()];
}

/**
 * The per-channel roll-up of the logs (migration 0023, log database) and its cursor, both beside the
 * logs, so moving the cursor and adding the sums is one transaction.
 */
export class ChannelStatsRepository implements LogCursorAggregation<ChannelLatencyTotals> {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  transaction<T>(work: (repository: ChannelStatsRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new ChannelStatsRepository(trx)));
  }

  /** Logs with an id up to this are counted (0 before the first roll-up); never creates the row. */
  async readWatermark(): Promise<number> {
    const row = await this.db.selectFrom('switchboard_job_state').select('last_id').where('name', '=', channelLatencyJobName).executeTakeFirst();
    return toNumber(row?.last_id);
  }

  /** The watermark, creating the cursor row on first use (outside any transaction). */
  async watermark(): Promise<number> {
    const row = await this.db.selectFrom('switchboard_job_state').select('last_id').where('name', '=', channelLatencyJobName).executeTakeFirst();
    if (row) return toNumber(row.last_id);
    // Two instances may both see no row: the second insert is refused by the primary key.
    await this.db
      .insertInto('switchboard_job_state')
      .values({ name: channelLatencyJobName, last_id: 0, updated_at: 0 })
      .execute()
      .catch(() => undefined);
    return 0;
  }

  async maxLogId(): Promise<number> {
    const row = await this.db
      .selectFrom('logs')
      .select(({ fn }) => fn.max('id').as('id'))
      .executeTakeFirst();
    return toNumber(row?.id);
  }

  async claim(from: number, to: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('switchboard_job_state')
      .set({ last_id: to, updated_at: now })
      .where('name', '=', channelLatencyJobName)
      .where('last_id', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Sums of the consume and error logs with ids in (afterId, upToId]: a roll-up step, read through the ids alone. */
  async rowsOfLogs(afterId: number, upToId: number): Promise<ChannelLatencyTotals[]> {
    return sumLogs(await this.countedLogs((eb) => eb.and([eb('id', '>', afterId), eb('id', '<=', upToId)]), true, 'ids'), true);
  }

  /**
   * The consume and error logs `scope` selects: those with milliseconds one by one, the others summed
   * per (hour when `byHour`), channel, type and second of use_time. A scope of `ids` keeps the type
   * off the indexes (see offIndex); a scope of time lets it lead the type and time index.
   */
  private async countedLogs(scope: LogScope, byHour: boolean, through: LogsReadThrough): Promise<Array<CountedLog & { count?: number | string }>> {
    const logs = this.db.selectFrom('logs').where(columnThrough<number>(through, 'type'), 'in', countedTypes).where(scope);
    const timed = await logs.select(['created_at', 'channel_id', 'type', 'use_time', 'quota', 'other']).where(withMilliseconds).execute();
    const bucket = byHour ? hourBucket : sql<number>`0`;
    const summed = await logs
      .select(({ fn }) => [
        bucket.as('created_at'),
        'channel_id',
        'type',
        'use_time',
        sql<null>`null`.as('other'),
        fn.countAll<number>().as('count'),
        sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota'),
      ])
      .where(withoutMilliseconds)
      .groupBy(byHour ? [hourBucket, 'channel_id', 'type', 'use_time'] : ['channel_id', 'type', 'use_time'])
      .execute();
    return [...timed, ...summed.map((row) => ({ ...row, quota: row.quota ?? 0 }))];
  }

  async add(totals: ChannelLatencyTotals): Promise<void> {
    const updated = await this.db
      .updateTable(rollUpTable)
      .set({ count: sql`${sql.ref('count')} + ${totals.count}`, quota: sql`${sql.ref('quota')} + ${totals.quota}` })
      .where('bucket', '=', totals.bucket)
      .where('channel_id', '=', totals.channel_id)
      .where('type', '=', totals.type)
      .where('latency', '=', totals.latency)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto(rollUpTable).values(totals).execute();
  }

  /** The rolled-up sums of the hours starting in [fromBucket, toBucket], per channel, type and latency. */
  async rolledUp(fromBucket: number, toBucket: number): Promise<ChannelLatencySums[]> {
    const rows = await this.db
      .selectFrom(rollUpTable)
      .select([
        'channel_id',
        'type',
        'latency',
        sql<number | string>`sum(${sql.ref('count')})`.as('count'),
        sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota'),
      ])
      .where('bucket', '>=', fromBucket)
      .where('bucket', '<=', toBucket)
      .groupBy(['channel_id', 'type', 'latency'])
      .execute();
    return rows.map((row) => ({ channel_id: toNumber(row.channel_id), type: toNumber(row.type), latency: toNumber(row.latency), count: toNumber(row.count), quota: toNumber(row.quota) }));
  }

  /**
   * The same sums read from the logs newer than `afterId` created in [from, to): the part not rolled up
   * yet. Behind a watermark (the roll-up runs every 15 s on SQLite, every minute elsewhere) that is
   * seconds to a minute or two of logs, read through their ids: through the type and time index, SQLite
   * walked every log of the range (a day's, by default) to find them. Before the first roll-up (no
   * watermark) the range is read through that index.
   */
  async newest(afterId: number, created: { from: number; to: number }): Promise<ChannelLatencySums[]> {
    const through: LogsReadThrough = afterId > 0 ? 'ids' : 'time';
    const createdAt = columnThrough<number>(through, 'created_at');
    const logs = await this.countedLogs((eb) => eb.and([eb('id', '>', afterId), eb(createdAt, '>=', created.from), eb(createdAt, '<', created.to)]), false, through);
    return sumLogs(logs, false).map(({ bucket: _bucket, ...sums }) => sums);
  }
}
