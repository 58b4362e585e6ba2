import { type Kysely, sql } from 'kysely';
import { LogType, type QuotaDataRow } from '@switchboard/contracts';
import { columnThrough, offIndex, type LogsReadThrough } from '../../../core/db/off-index.ts';
import { inTransaction } from '../../../core/db/in-transaction.ts';
import type { Database } from '../../../core/db/schema.ts';
import type { LogCursorAggregation } from '../../../domain/logs/log-cursor-aggregation.ts';

export const quotaDataJobName = 'quota_data';
const hourBucket = sql<number>`${sql.ref('created_at')} - (${sql.ref('created_at')} % 3600)`;

/** One user's use of one model in one hour: a `quota_data` row (as the dashboard receives it), or what is added to one. */
export type QuotaDataBucket = QuotaDataRow;

export interface QuotaDataRange {
  from: number;
  to: number;
  username?: string | undefined;
  userId?: number | undefined;
}

const toNumber = (value: unknown) => Number(value ?? 0);

/**
 * The dashboard's hourly usage (`quota_data`, main database) and the cursor of its aggregation
 * (`switchboard_job_state`, also main, so the cursor moves in the same transaction as the sums).
 * The consume logs it is built from may live in the separate log database.
 */
export class QuotaDataRepository implements LogCursorAggregation<QuotaDataBucket> {
  private readonly db: Kysely<Database>;
  private readonly logDb: Kysely<Database>;

  constructor(db: Kysely<Database>, logDb: Kysely<Database>) {
    this.db = db;
    this.logDb = logDb;
  }

  /** Runs `work` in one transaction of the main database, given this repository bound to it. */
  transaction<T>(work: (quotaData: QuotaDataRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new QuotaDataRepository(trx, this.logDb)));
  }

  /**
   * Consume logs with an id up to this are counted. On first use the cursor starts at 0, unless
   * `quota_data` already has rows (a database brought over from new-api, whose own aggregation
   * counted the old logs): then it starts after the newest log, so nothing is counted twice.
   */
  async watermark(): Promise<number> {
    const row = await this.db.selectFrom('switchboard_job_state').select('last_id').where('name', '=', quotaDataJobName).executeTakeFirst();
    if (row) return Number(row.last_id);
    const existing = await this.db.selectFrom('quota_data').select('id').limit(1).executeTakeFirst();
    const start = existing ? await this.maxLogId() : 0;
    // Two instances may both see no row: the second insert is refused by the primary key.
    await this.db.insertInto('switchboard_job_state').values({ name: quotaDataJobName, last_id: start, updated_at: 0 }).execute().catch(() => undefined);
    return this.watermark();
  }

  async maxLogId(): Promise<number> {
    const row = await this.logDb.selectFrom('logs').select(({ fn }) => fn.max('id').as('id')).executeTakeFirst();
    return toNumber(row?.id);
  }

  /** Moves the cursor from `from` to `to` only if it still reads `from` (a compare-and-set). */
  async claim(from: number, to: number, now: number): Promise<boolean> {
    const result = await this.db.updateTable('switchboard_job_state').set({ last_id: to, updated_at: now }).where('name', '=', quotaDataJobName).where('last_id', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Hourly sums of the consume logs with ids in (afterId, upToId]: a roll-up step, read through the ids alone (see offIndex). */
  async rowsOfLogs(afterId: number, upToId: number): Promise<QuotaDataBucket[]> {
    const rows = await this.logDb
      .selectFrom('logs')
      .select(({ fn }) => [
        'user_id',
        'username',
        'model_name',
        hourBucket.as('created_at'),
        fn.countAll<number>().as('count'),
        sql<number>`sum(${sql.ref('quota')})`.as('quota'),
        sql<number>`sum(${sql.ref('prompt_tokens')} + ${sql.ref('completion_tokens')})`.as('token_used'),
      ])
      .where(offIndex<number>('type'), '=', LogType.consume)
      .where('id', '>', afterId)
      .where('id', '<=', upToId)
      .groupBy(['user_id', 'username', 'model_name', hourBucket])
      .execute();
    return rows.map((row) => ({
      user_id: row.user_id,
      username: row.username,
      model_name: row.model_name,
      created_at: toNumber(row.created_at),
      token_used: toNumber(row.token_used),
      count: toNumber(row.count),
      quota: toNumber(row.quota),
    }));
  }

  async add(bucket: QuotaDataBucket): Promise<void> {
    const updated = await this.db
      .updateTable('quota_data')
      .set({
        token_used: sql`${sql.ref('token_used')} + ${bucket.token_used}`,
        count: sql`${sql.ref('count')} + ${bucket.count}`,
        quota: sql`${sql.ref('quota')} + ${bucket.quota}`,
      })
      .where('user_id', '=', bucket.user_id)
      .where('username', '=', bucket.username)
      .where('model_name', '=', bucket.model_name)
      .where('created_at', '=', bucket.created_at)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('quota_data').values(bucket).execute();
  }

  /** The buckets whose hour starts in [from, to], per user and model, oldest first. */
  async buckets(range: QuotaDataRange): Promise<QuotaDataBucket[]> {
    let query = this.db
      .selectFrom('quota_data')
      .select(['user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'])
      .where('created_at', '>=', range.from)
      .where('created_at', '<=', range.to);
    if (range.userId !== undefined) query = query.where('user_id', '=', range.userId);
    if (range.username) query = query.where('username', '=', range.username);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => ({ ...row, created_at: toNumber(row.created_at), token_used: toNumber(row.token_used), count: toNumber(row.count), quota: toNumber(row.quota) }));
  }

  /**
   * The same sums as `rowsOfLogs`, of the consume logs newer than `afterId` whose hour starts in
   * [from, to]: the part of the range the aggregation has not counted yet (minutes of logs). Read
   * `through` their ids (a recent `afterId`: the type and time index would walk every log of the range,
   * a day's by default, to find them) or through the range's index (no watermark, or a stale one).
   */
  async newestBuckets(afterId: number, range: QuotaDataRange, through: LogsReadThrough = 'time'): Promise<QuotaDataBucket[]> {
    const type = columnThrough<number>(through, 'type');
    const createdAt = columnThrough<number>(through, 'created_at');
    const userId = columnThrough<number>(through, 'user_id');
    let query = this.logDb
      .selectFrom('logs')
      .select(({ fn }) => [
        'user_id',
        'username',
        'model_name',
        hourBucket.as('created_at'),
        fn.countAll<number>().as('count'),
        sql<number>`sum(${sql.ref('quota')})`.as('quota'),
        sql<number>`sum(${sql.ref('prompt_tokens')} + ${sql.ref('completion_tokens')})`.as('token_used'),
      ])
      .where('id', '>', afterId)
      .where(type, '=', LogType.consume)
      .where(createdAt, '>=', Math.ceil(range.from / 3600) * 3600)
      .where(createdAt, '<', range.to - (range.to % 3600) + 3600);
    if (range.userId !== undefined) query = query.where(userId, '=', range.userId);
    if (range.username) query = query.where('username', '=', range.username);
    const rows = await query.groupBy(['user_id', 'username', 'model_name', hourBucket]).execute();
    return rows.map((row) => ({
      user_id: row.user_id,
      username: row.username,
      model_name: row.model_name,
      created_at: toNumber(row.created_at),
      token_used: toNumber(row.token_used),
      count: toNumber(row.count),
      quota: toNumber(row.quota),
    }));
  }
}
