import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { LogType } from '@switchboard/contracts';
import type { LogRow } from '../../../core/db/log-schema.ts';
import type { Database } from '../../../core/db/schema.ts';
import type { LogFilters } from './log-filters.ts';

export type { LogRow } from '../../../core/db/log-schema.ts';

/**
 * Equality filters only (no LIKE). User, token name and type have their own index; model, channel and
 * group are read within the hours the roll-ups point at (LogPageLocator); the time by `(created_at, id)`.
 */
function applyLogFilters<O>(query: SelectQueryBuilder<Database, 'logs', O>, filters: LogFilters): SelectQueryBuilder<Database, 'logs', O> {
  let filtered = query;
  if (filters.type !== undefined) filtered = filtered.where('type', '=', filters.type);
  if (filters.userId !== undefined) filtered = filtered.where('user_id', '=', filters.userId);
  if (filters.userIds !== undefined) filtered = filtered.where('user_id', 'in', [...filters.userIds]);
  if (filters.username !== undefined) filtered = filtered.where('username', '=', filters.username);
  if (filters.tokenName !== undefined) filtered = filtered.where('token_name', '=', filters.tokenName);
  if (filters.modelName !== undefined) filtered = filtered.where('model_name', '=', filters.modelName);
  if (filters.channelId !== undefined) filtered = filtered.where('channel_id', '=', filters.channelId);
  if (filters.group !== undefined) filtered = filtered.where('group', '=', filters.group);
  if (filters.start !== undefined) filtered = filtered.where('created_at', '>=', filters.start);
  if (filters.end !== undefined) filtered = filtered.where('created_at', '<=', filters.end);
  return filtered;
}

/** Queries of the `logs` table, which may live in its own database (LOG_SQL_DSN). */
export class LogRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Newest first by creation time (ties by id), as `(created_at, id)` and the filters' `(column, created_at)` indexes serve. */
  page(filters: LogFilters, offset: number, limit: number): Promise<LogRow[]> {
    return this.pageQuery(filters, offset, limit).execute();
  }

  /** The page's query unexecuted, so the benchmark can print the engine's plan for it. */
  pageQuery(filters: LogFilters, offset: number, limit: number) {
    return applyLogFilters(this.db.selectFrom('logs').selectAll(), filters).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset);
  }

  /**
   * The next `limit` rows in the page's order after `after` (the last row of the previous batch): the
   * CSV export's keyset batches. `created_at <= c` is the index range of the (filter, created_at, id)
   * indexes; the rows of that same second already written are left out by id.
   */
  batchAfter(filters: LogFilters, after: { createdAt: number; id: number } | undefined, limit: number): Promise<LogRow[]> {
    let query = applyLogFilters(this.db.selectFrom('logs').selectAll(), filters);
    if (after) {
      query = query
        .where('created_at', '<=', after.createdAt)
        .where((where) => where.or([where('created_at', '<', after.createdAt), where('id', '<', after.id)]));
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Rows matching the filters (and, with `afterId`, newer than that log id). */
  async count(filters: LogFilters, afterId?: number): Promise<number> {
    let query = applyLogFilters(
      this.db.selectFrom('logs').select(({ fn }) => fn.countAll<number>().as('total')),
      filters,
    );
    if (afterId !== undefined) query = query.where('id', '>', afterId);
    const row = await query.executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Quota spent by the rows matching the filters (and, with `afterId`, newer than that log id). */
  async quotaSum(filters: LogFilters, afterId?: number): Promise<number> {
    let query = applyLogFilters(this.db.selectFrom('logs').select(sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota')), filters);
    if (afterId !== undefined) query = query.where('id', '>', afterId);
    const row = await query.executeTakeFirst();
    return Number(row?.quota ?? 0);
  }

  /**
   * How many logs are newer than `afterId`, counting at most `limit`, and the earliest creation time
   * among those counted. Read along the primary key: the newest logs, whatever the filters' indexes.
   */
  async newest(afterId: number, limit: number): Promise<{ count: number; earliestCreatedAt: number }> {
    const newest = this.db.selectFrom('logs').select('created_at').where('id', '>', afterId).orderBy('id').limit(limit).as('newest');
    const row = await this.db
      .selectFrom(newest)
      .select(({ fn }) => [fn.countAll<number>().as('count'), fn.min('created_at').as('earliest')])
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), earliestCreatedAt: Number(row?.earliest ?? 0) };
  }

  /** Requests and tokens of consumption in the last minute (within the filters). */
  async lastMinute(filters: LogFilters, now: number): Promise<{ rpm: number; tpm: number }> {
    const lastMinute = { ...filters, type: LogType.consume, start: Math.max(filters.start ?? 0, now - 60) };
    const row = await applyLogFilters(
      this.db
        .selectFrom('logs')
        .select(({ fn }) => [
          fn.countAll<number>().as('rpm'),
          sql<number | string | null>`sum(${sql.ref('prompt_tokens')} + ${sql.ref('completion_tokens')})`.as('tpm'),
        ]),
      lastMinute,
    ).executeTakeFirst();
    return { rpm: Number(row?.rpm ?? 0), tpm: Number(row?.tpm ?? 0) };
  }

  /**
   * Deletes up to `batchSize` rows older than the cutoff, oldest first; answers how many went and the
   * newest creation time among them.
   */
  async deleteBatchBefore(cutoff: number, batchSize: number): Promise<{ deleted: number; lastCreatedAt: number }> {
    const rows = await this.db
      .selectFrom('logs')
      .select(['id', 'created_at'])
      .where('created_at', '<', cutoff)
      .orderBy('created_at')
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return { deleted: 0, lastCreatedAt: 0 };
    const result = await this.db
      .deleteFrom('logs')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .executeTakeFirst();
    return { deleted: Number(result.numDeletedRows), lastCreatedAt: Number(rows[rows.length - 1]?.created_at ?? 0) };
  }
}
