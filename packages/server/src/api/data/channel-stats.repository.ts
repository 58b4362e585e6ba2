import { type Kysely, type RawBuilder, sql } from 'kysely';
import { LogType } from '@switchboard/contracts';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database, LogHourlyChannelLatencyTable } from '../../db/schema.ts';
import type { LogCursorAggregation } from '../../logs/log-cursor-aggregation.ts';
import { latencyBounds, overflowLatency } from './latency-buckets.ts';

export const channelLatencyJobName = 'log_hourly_channel_latency';

/** One channel's calls of one type in one hour (or over a range) within one latency bucket. */
export type ChannelLatencyTotals = LogHourlyChannelLatencyTable;
export type ChannelLatencySums = Omit<ChannelLatencyTotals, 'bucket'>;

const countedTypes = [LogType.consume, LogType.error];
const hourBucket = sql<number>`${sql.ref('created_at')} - (${sql.ref('created_at')} % 3600)`;
/** Literal bounds, so PostgreSQL sees the selected and the grouped expressions as the same one. */
const latencyBucket: RawBuilder<number> = sql<number>`case ${sql.join(
  latencyBounds.map((bound) => sql`when ${sql.ref('use_time')} <= ${sql.lit(bound)} then ${sql.lit(bound)}`),
  sql` `,
)} else ${sql.lit(overflowLatency)} end`;
const toNumber = (value: unknown) => Number(value ?? 0);

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

  /** Sums of the consume and error logs with ids in (afterId, upToId]. */
  async rowsOfLogs(afterId: number, upToId: number): Promise<ChannelLatencyTotals[]> {
    const rows = await this.db
      .selectFrom('logs')
      .select(({ fn }) => [
        hourBucket.as('bucket'),
        'channel_id',
        'type',
        latencyBucket.as('latency'),
        fn.countAll<number>().as('count'),
        sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota'),
      ])
      .where('type', 'in', countedTypes)
      .where('id', '>', afterId)
      .where('id', '<=', upToId)
      .groupBy([hourBucket, 'channel_id', 'type', latencyBucket])
      .execute();
    return rows.map((row) => ({
      bucket: toNumber(row.bucket),
      channel_id: toNumber(row.channel_id),
      type: toNumber(row.type),
      latency: toNumber(row.latency),
      count: toNumber(row.count),
      quota: toNumber(row.quota),
    }));
  }

  async add(totals: ChannelLatencyTotals): Promise<void> {
    const updated = await this.db
      .updateTable('switchboard_log_hourly_channel_latency')
      .set({ count: sql`${sql.ref('count')} + ${totals.count}`, quota: sql`${sql.ref('quota')} + ${totals.quota}` })
      .where('bucket', '=', totals.bucket)
      .where('channel_id', '=', totals.channel_id)
      .where('type', '=', totals.type)
      .where('latency', '=', totals.latency)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('switchboard_log_hourly_channel_latency').values(totals).execute();
  }

  /** The rolled-up sums of the hours starting in [fromBucket, toBucket], per channel, type and latency. */
  async rolledUp(fromBucket: number, toBucket: number): Promise<ChannelLatencySums[]> {
    const rows = await this.db
      .selectFrom('switchboard_log_hourly_channel_latency')
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

  /** The same sums read from the logs newer than `afterId` created in [from, to): the part not rolled up yet. */
  async newest(afterId: number, created: { from: number; to: number }): Promise<ChannelLatencySums[]> {
    const rows = await this.db
      .selectFrom('logs')
      .select(({ fn }) => ['channel_id', 'type', latencyBucket.as('latency'), fn.countAll<number>().as('count'), sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota')])
      .where('id', '>', afterId)
      .where('type', 'in', countedTypes)
      .where('created_at', '>=', created.from)
      .where('created_at', '<', created.to)
      .groupBy(['channel_id', 'type', latencyBucket])
      .execute();
    return rows.map((row) => ({ channel_id: toNumber(row.channel_id), type: toNumber(row.type), latency: toNumber(row.latency), count: toNumber(row.count), quota: toNumber(row.quota) }));
  }
}
