import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LogCursorAggregation } from '../../logs/log-cursor-aggregation.ts';

export const logHourlyJob = 'log_hourly';
const hourBucket = sql<number>`${sql.ref('created_at')} - (${sql.ref('created_at')} % 3600)`;

export interface HourlyLogTotals {
  bucket: number;
  type: number;
  model_name: string;
  count: number;
  quota: number;
}

/** The hourly log totals and their cursor, both in the log database. */
export class LogHourlyRepository implements LogCursorAggregation<HourlyLogTotals> {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Logs with an id up to this are counted in the hourly rows (0 before the first roll-up). */
  async readWatermark(executor: Kysely<Database> | Transaction<Database> = this.db): Promise<number> {
    const row = await executor.selectFrom('switchboard_job_state').select('last_id').where('name', '=', logHourlyJob).executeTakeFirst();
    return Number(row?.last_id ?? 0);
  }

  /** The watermark, creating the cursor row on first use (outside any transaction). */
  async watermark(): Promise<number> {
    const row = await this.db.selectFrom('switchboard_job_state').select('last_id').where('name', '=', logHourlyJob).executeTakeFirst();
    if (row) return Number(row.last_id);
    // Two instances may both see no row: the second insert is ignored by the primary key.
    await this.db.insertInto('switchboard_job_state').values({ name: logHourlyJob, last_id: 0, updated_at: 0 }).execute().catch(() => undefined);
    return 0;
  }

  async maxLogId(): Promise<number> {
    const row = await this.db.selectFrom('logs').select(({ fn }) => fn.max('id').as('id')).executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  /** Takes the cursor row's lock (and moves the cursor when `to` is given) only if it still reads `from`. */
  async claim(trx: Transaction<Database>, from: number, to: number, now: number): Promise<boolean> {
    const result = await trx.updateTable('switchboard_job_state').set({ last_id: to, updated_at: now }).where('name', '=', logHourlyJob).where('last_id', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  rowsOfLogs(afterId: number, upToId: number): Promise<HourlyLogTotals[]> {
    return this.totalsOfLogs(afterId, upToId);
  }

  /** Totals of the logs in (afterId, upToId], optionally only those created in [from, to). */
  async totalsOfLogs(afterId: number, upToId: number, options: { executor?: Transaction<Database>; created?: { from: number; to: number } } = {}): Promise<HourlyLogTotals[]> {
    const created = options.created;
    let query = (options.executor ?? this.db)
      .selectFrom('logs')
      .select(({ fn }) => [hourBucket.as('bucket'), 'type', 'model_name', fn.countAll<number>().as('count'), sql<number>`sum(${sql.ref('quota')})`.as('quota')])
      .where('id', '<=', upToId);
    // Without a lower bound the created_at range picks the index, not a walk of the whole id range.
    if (afterId > 0) query = query.where('id', '>', afterId);
    if (created) query = query.where('created_at', '>=', created.from).where('created_at', '<', created.to);
    const rows = await query.groupBy([hourBucket, 'type', 'model_name']).execute();
    return rows.map((row) => ({ bucket: Number(row.bucket), type: row.type, model_name: row.model_name, count: Number(row.count), quota: Number(row.quota ?? 0) }));
  }

  async add(trx: Transaction<Database>, totals: HourlyLogTotals): Promise<void> {
    const updated = await trx
      .updateTable('switchboard_log_hourly')
      .set({ count: sql`${sql.ref('count')} + ${totals.count}`, quota: sql`${sql.ref('quota')} + ${totals.quota}` })
      .where('bucket', '=', totals.bucket)
      .where('type', '=', totals.type)
      .where('model_name', '=', totals.model_name)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await trx.insertInto('switchboard_log_hourly').values(totals).execute();
  }

  async deleteUpTo(trx: Transaction<Database>, lastBucket: number): Promise<void> {
    await trx.deleteFrom('switchboard_log_hourly').where('bucket', '<=', lastBucket).execute();
  }

  /** Sum over the hours in [fromBucket, toBucket), optionally of one type and one model. */
  async sum(filters: { type?: number | undefined; modelName?: string | undefined }, fromBucket: number, toBucket: number): Promise<{ count: number; quota: number }> {
    let query = this.db
      .selectFrom('switchboard_log_hourly')
      .select([sql<number | string | null>`sum(${sql.ref('count')})`.as('count'), sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota')])
      .where('bucket', '>=', fromBucket);
    if (Number.isFinite(toBucket)) query = query.where('bucket', '<', toBucket);
    if (filters.type !== undefined) query = query.where('type', '=', filters.type);
    if (filters.modelName !== undefined) query = query.where('model_name', '=', filters.modelName);
    const row = await query.executeTakeFirst();
    return { count: Number(row?.count ?? 0), quota: Number(row?.quota ?? 0) };
  }
}
