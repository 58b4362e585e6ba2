import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { inTransaction } from '../../../core/db/in-transaction.ts';
import type { Database } from '../../../core/db/schema.ts';
import type { LogCursorAggregation } from '../../../domain/logs/log-cursor-aggregation.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';
import type { LogFilters } from './log-filters.ts';

export const hour = 3600;
export const day = 86_400;

/** The start of the bucket (of `seconds`, UTC) a log was created in. */
const bucketOf = (seconds: number) => sql<number>`${sql.ref('created_at')} - (${sql.ref('created_at')} % ${sql.lit(seconds)})`;

/**
 * The log columns a roll-up table can be keyed by, each with the log page filters it answers: a user
 * is one id (a user's own page) or a list of them (a username resolved by the service).
 */
const keyFilters = {
  model_name: ['modelName'],
  channel_id: ['channelId'],
  group: ['group'],
  user_id: ['userId', 'userIds'],
  token_name: ['tokenName'],
} as const satisfies Record<string, ReadonlyArray<keyof LogFilters>>;
export type HourlyKey = keyof typeof keyFilters;
interface HourlyKeyValues {
  model_name: string;
  channel_id: number;
  group: string;
  user_id: number;
  token_name: string;
}
/** A null key (only in hand-made rows) is counted as the column's default, never matched by a filter. */
const keyDefaults: HourlyKeyValues = { model_name: '', channel_id: 0, group: '', user_id: 0, token_name: '' };
/** Matched on the logs' own column (the service resolves it to `userIds` first): no roll-up has it. */
const unrolledFilters = ['username'] as const satisfies ReadonlyArray<keyof LogFilters>;

export type HourlyLogTotals<Key extends HourlyKey> = { bucket: number; type: number; count: number; quota: number } & Pick<HourlyKeyValues, Key>;

/**
 * One roll-up of the logs: its table, its cursor row in `switchboard_job_state`, its key columns and
 * its bucket size (an hour, or a day for the per-user tables).
 */
export interface LogHourlyTable<Key extends HourlyKey> {
  readonly name:
    | 'switchboard_log_hourly'
    | 'switchboard_log_hourly_channel_group'
    | 'switchboard_log_hourly_type'
    | 'switchboard_log_hourly_group'
    | 'switchboard_log_daily_user_token'
    | 'switchboard_log_daily_user_model';
  readonly job: string;
  readonly keys: readonly Key[];
  /** Seconds per bucket: `bucket` is a multiple of it (UTC), the start of the hour or day. */
  readonly bucketSeconds: number;
  /**
   * Keys without which the table does not answer (its index starts with them): the per-user table a
   * user's filters, with or without a model, the per-token table a token name's, with or without a user.
   */
  readonly required?: readonly Key[];
  /**
   * Other roll-ups kept by this table's job in the same transaction and under the same cursor (so they
   * count exactly the logs this one counts): smaller ones over a subset of its keys, or (the per-user
   * and model table beside the per-token one) another cut of the same logs.
   */
  readonly keptWith?: ReadonlyArray<LogHourlyTable<HourlyKey>>;
}

/**
 * Per hour and type (migration 0033), kept with the model roll-up: the totals of no filter or a type
 * alone read a few rows an hour instead of one per model.
 */
export const typeHourly: LogHourlyTable<never> = { name: 'switchboard_log_hourly_type', job: 'log_hourly', keys: [], bucketSeconds: hour };
/** Per hour, type and model (migration 0011): model totals, and the hours that hold a model's logs. */
export const modelHourly: LogHourlyTable<'model_name'> = {
  name: 'switchboard_log_hourly',
  job: 'log_hourly',
  keys: ['model_name'],
  bucketSeconds: hour,
  keptWith: [typeHourly],
};
/** Per hour, type and group (migration 0033), kept with the channel and group roll-up: group totals and pages. */
export const groupHourly: LogHourlyTable<'group'> = {
  name: 'switchboard_log_hourly_group',
  job: 'log_hourly_channel_group',
  keys: ['group'],
  bucketSeconds: hour,
};
/** Per hour, type, channel and group (migration 0015): channel totals and pages. */
export const channelGroupHourly: LogHourlyTable<'channel_id' | 'group'> = {
  name: 'switchboard_log_hourly_channel_group',
  job: 'log_hourly_channel_group',
  keys: ['channel_id', 'group'],
  bucketSeconds: hour,
  keptWith: [groupHourly],
};
/**
 * Per day, type, user and model (migration 0037), kept with the per-token table: a user's totals, with
 * or without a model (a user alone sums over the models).
 */
export const userModelDaily: LogHourlyTable<'user_id' | 'model_name'> = {
  name: 'switchboard_log_daily_user_model',
  job: 'log_daily_user',
  keys: ['user_id', 'model_name'],
  bucketSeconds: day,
  required: ['user_id'],
};
/**
 * Per day, type, user and token name (migration 0036): a token name's totals, of a user or of all.
 * Per hour these tables would have nearly a row per log; per day a heavy user has a few rows a day.
 */
export const userTokenDaily: LogHourlyTable<'user_id' | 'token_name'> = {
  name: 'switchboard_log_daily_user_token',
  job: 'log_daily_user',
  keys: ['user_id', 'token_name'],
  bucketSeconds: day,
  required: ['token_name'],
  keptWith: [userModelDaily],
};

/** An hourly table of the log database and its cursor, both in the log database. */
export class LogHourlyRepository<Key extends HourlyKey> implements LogCursorAggregation<HourlyLogTotals<Key>> {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;
  readonly table: LogHourlyTable<Key>;

  constructor(db: Kysely<Database>, dialect: SqlDialect, table: LogHourlyTable<Key>) {
    this.db = db;
    this.dialect = dialect;
    this.table = table;
  }

  get bucketSeconds(): number {
    return this.table.bucketSeconds;
  }

  /**
   * Whether the filters can be answered from this table: only its keys, the type and the time are
   * set, and every key it requires.
   */
  covers(filters: LogFilters): boolean {
    const keys: readonly HourlyKey[] = this.table.keys;
    const isSet = (names: ReadonlyArray<keyof LogFilters>) => names.some((name) => filters[name] !== undefined);
    const unkeyed = (Object.entries(keyFilters) as Array<[HourlyKey, ReadonlyArray<keyof LogFilters>]>).filter(([key]) => !keys.includes(key));
    return !isSet(unrolledFilters) && !unkeyed.some(([, names]) => isSet(names)) && (this.table.required ?? []).every((key) => isSet(keyFilters[key]));
  }

  /** Runs `work` in one transaction, given this repository bound to it. */
  transaction<T>(work: (hourly: LogHourlyRepository<Key>) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new LogHourlyRepository(trx, this.dialect, this.table)));
  }

  /** Logs with an id up to this are counted in the hourly rows (0 before the first roll-up). */
  async readWatermark(): Promise<number> {
    const row = await this.db.selectFrom('switchboard_job_state').select('last_id').where('name', '=', this.table.job).executeTakeFirst();
    return Number(row?.last_id ?? 0);
  }

  /** The watermark, creating the cursor row on first use (outside any transaction). */
  async watermark(): Promise<number> {
    const row = await this.db.selectFrom('switchboard_job_state').select('last_id').where('name', '=', this.table.job).executeTakeFirst();
    if (row) return Number(row.last_id);
    // Two instances may both see no row: the second insert is ignored by the primary key.
    await this.db
      .insertInto('switchboard_job_state')
      .values({ name: this.table.job, last_id: 0, updated_at: 0 })
      .execute()
      .catch(() => undefined);
    return 0;
  }

  async maxLogId(): Promise<number> {
    const row = await this.db
      .selectFrom('logs')
      .select(({ fn }) => fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  /** Takes the cursor row's lock (and moves the cursor when `to` is given) only if it still reads `from`. */
  async claim(from: number, to: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('switchboard_job_state')
      .set({ last_id: to, updated_at: now })
      .where('name', '=', this.table.job)
      .where('last_id', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  rowsOfLogs(afterId: number, upToId: number): Promise<Array<HourlyLogTotals<Key>>> {
    return this.totalsOfLogs(afterId, upToId);
  }

  /** Totals of the logs in (afterId, upToId], optionally only those created in [from, to). */
  async totalsOfLogs(afterId: number, upToId: number, created?: { from: number; to: number }): Promise<Array<HourlyLogTotals<Key>>> {
    // Literal defaults, so PostgreSQL sees the selected and the grouped expressions as the same one.
    const keys = this.table.keys.map((key) => ({ key, value: sql<HourlyKeyValues[Key]>`coalesce(${sql.ref(key)}, ${sql.lit(keyDefaults[key])})` }));
    let query = this.db
      .selectFrom('logs')
      .select(({ fn }) => [
        bucketOf(this.table.bucketSeconds).as('bucket'),
        'type',
        fn.countAll<number>().as('count'),
        sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota'),
        ...keys.map(({ key, value }) => value.as(key)),
      ])
      .where('id', '<=', upToId);
    // Without a lower bound the created_at range picks the index, not a walk of the whole id range.
    if (afterId > 0) query = query.where('id', '>', afterId);
    if (created) query = query.where('created_at', '>=', created.from).where('created_at', '<', created.to);
    const rows: Array<Record<string, unknown>> = await query.groupBy([bucketOf(this.table.bucketSeconds), 'type', ...keys.map(({ value }) => value)]).execute();
    return rows.map((row) => ({
      ...this.keyValues(row),
      bucket: Number(row.bucket),
      type: Number(row.type),
      count: Number(row.count),
      quota: Number(row.quota ?? 0),
    }));
  }

  private keyValues(row: Record<string, unknown>): Pick<HourlyKeyValues, Key> {
    const entries = this.table.keys.map((key) => [key, typeof keyDefaults[key] === 'number' ? Number(row[key]) : String(row[key])]);
    return Object.fromEntries(entries) as Pick<HourlyKeyValues, Key>;
  }

  async add(totals: HourlyLogTotals<Key>): Promise<void> {
    let update = this.db
      .updateTable(this.table.name)
      .set({ count: sql`${sql.ref('count')} + ${totals.count}`, quota: sql`${sql.ref('quota')} + ${totals.quota}` })
      .where('bucket', '=', totals.bucket)
      .where('type', '=', totals.type);
    for (const key of this.table.keys) update = update.where(sql.ref(key), '=', totals[key]);
    const updated = await update.executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto(this.table.name).values(totals).execute();
  }

  /**
   * Adds the totals of the logs in (afterId, upToId], optionally only those created in [from, to), to
   * this table and those kept with it (one statement each, in the caller's transaction).
   */
  async addLogs(afterId: number, upToId: number, created?: { from: number; to: number }): Promise<void> {
    for (const table of [this.table, ...(this.table.keptWith ?? [])]) await this.addLogsTo(table, afterId, upToId, created);
  }

  /**
   * One table's part of `addLogs`, in one statement: the sums are grouped and merged into the table by
   * the engine (INSERT … SELECT … GROUP BY with an upsert). Adding them row by row took a statement or
   * two per (hour, type, key): with varied logs nearly one per log, 10–50 s per 20,000 logs, hours for
   * a moved-over database.
   */
  private async addLogsTo(target: LogHourlyTable<HourlyKey>, afterId: number, upToId: number, created?: { from: number; to: number }): Promise<void> {
    const table = sql.table(target.name);
    const keyColumns = target.keys.map((key) => sql.ref(key));
    const columns = sql.join([sql.ref('bucket'), sql.ref('type'), ...keyColumns, sql.ref('count'), sql.ref('quota')]);
    const keyValues = target.keys.map((key) => sql`coalesce(${sql.ref(key)}, ${sql.lit(keyDefaults[key])})`);
    const groups = sql.join(Array.from({ length: 2 + keyValues.length }, (_unused, index) => sql.raw(String(index + 1))));
    const conditions = [sql`${sql.ref('id')} <= ${upToId}`];
    // Without a lower bound the created_at range picks the index, not a walk of the whole id range.
    if (afterId > 0) conditions.push(sql`${sql.ref('id')} > ${afterId}`);
    if (created) conditions.push(sql`${sql.ref('created_at')} >= ${created.from}`, sql`${sql.ref('created_at')} < ${created.to}`);
    const selected = sql.join([bucketOf(target.bucketSeconds), sql.ref('type'), ...keyValues, sql`count(*)`, sql`coalesce(sum(${sql.ref('quota')}), 0)`]);
    const sums = sql`select ${selected} from ${sql.table('logs')} where ${sql.join(conditions, sql` and `)} group by ${groups}`;
    const count = sql.ref('count');
    const quota = sql.ref('quota');
    if (this.dialect === 'mysql') {
      // The derived table keeps the GROUP BY apart from the upsert, where MySQL would read its columns.
      await sql`insert into ${table} (${columns}) select * from (${sums}) as sums
        on duplicate key update ${count} = ${count} + values(${count}), ${quota} = ${quota} + values(${quota})`.execute(this.db);
      return;
    }
    await sql`insert into ${table} (${columns}) ${sums}
      on conflict (${sql.join([sql.ref('bucket'), sql.ref('type'), ...keyColumns])})
      do update set ${count} = ${table}.${count} + excluded.${count}, ${quota} = ${table}.${quota} + excluded.${quota}`.execute(this.db);
  }

  /** Adds the totals of the logs with ids up to `upToId` created in [from, to) (a purge's recount of one bucket). */
  async addTotalsOfLogs(upToId: number, created: { from: number; to: number }): Promise<void> {
    await this.addLogs(0, upToId, created);
  }

  /** Deletes the buckets up to `lastBucket` from this table and those kept with it (all of one bucket size). */
  async deleteUpTo(lastBucket: number): Promise<void> {
    for (const table of [this.table, ...(this.table.keptWith ?? [])]) await this.db.deleteFrom(table.name).where('bucket', '<=', lastBucket).execute();
  }

  /** Sum over the buckets in [fromBucket, toBucket), of the type and key filters set (see `covers`). */
  async sum(filters: LogFilters, fromBucket: number, toBucket: number): Promise<{ count: number; quota: number }> {
    const query = this.db
      .selectFrom(this.table.name)
      .select([sql<number | string | null>`sum(${sql.ref('count')})`.as('count'), sql<number | string | null>`sum(${sql.ref('quota')})`.as('quota')]);
    const row = await this.withinFilters(query, filters, fromBucket, toBucket).executeTakeFirst();
    return { count: Number(row?.count ?? 0), quota: Number(row?.quota ?? 0) };
  }

  /**
   * The logs of the type and key filters set (see `covers`) per whole hour in [fromBucket, toBucket),
   * newest hour first, at most `hours` of them (the key's `(key, bucket)` index is walked backwards),
   * only hours that have rows in the table: where the log page finds a filter's rows.
   */
  async countsPerHour(filters: LogFilters, fromBucket: number, toBucket: number, hours: number): Promise<Array<{ bucket: number; count: number }>> {
    const query = this.db.selectFrom(this.table.name).select(['bucket', sql<number | string>`sum(${sql.ref('count')})`.as('count')]);
    const rows = await this.withinFilters(query, filters, fromBucket, toBucket).groupBy('bucket').orderBy('bucket', 'desc').limit(hours).execute();
    return rows.map((row) => ({ bucket: Number(row.bucket), count: Number(row.count) }));
  }

  private withinFilters<O>(
    query: SelectQueryBuilder<Database, LogHourlyTable<Key>['name'], O>,
    filters: LogFilters,
    fromBucket: number,
    toBucket: number,
  ): SelectQueryBuilder<Database, LogHourlyTable<Key>['name'], O> {
    let filtered = query.where('bucket', '>=', fromBucket);
    if (Number.isFinite(toBucket)) filtered = filtered.where('bucket', '<', toBucket);
    if (filters.type !== undefined) filtered = filtered.where('type', '=', filters.type);
    for (const key of this.table.keys) {
      for (const name of keyFilters[key]) {
        const value = filters[name];
        if (value === undefined) continue;
        // A username resolved to several users (or one) is matched by their ids.
        filtered = Array.isArray(value) ? filtered.where(sql.ref(key), 'in', [...value]) : filtered.where(sql.ref(key), '=', value);
      }
    }
    return filtered;
  }
}

/**
 * The roll-up jobs of a log database (each also writes the tables kept with it), the smaller first: per
 * hour and model, per hour, channel and group, per day, user and token name (and per day, user and model).
 */
export function logHourlyRepositories(
  db: Kysely<Database>,
  dialect: SqlDialect,
): readonly [LogHourlyRepository<'model_name'>, LogHourlyRepository<'channel_id' | 'group'>, LogHourlyRepository<'user_id' | 'token_name'>] {
  return [
    new LogHourlyRepository(db, dialect, modelHourly),
    new LogHourlyRepository(db, dialect, channelGroupHourly),
    new LogHourlyRepository(db, dialect, userTokenDaily),
  ];
}

/**
 * Every roll-up table a log page or total can read, the smallest first (the first that covers a
 * filter answers it): per hour and type, model, group, channel and group; per day, user and model
 * (a user with or without a model), user and token name. Read only: the jobs (logHourlyRepositories) write them.
 */
export function logHourlyReaders(db: Kysely<Database>, dialect: SqlDialect): ReadonlyArray<LogHourlyRepository<HourlyKey>> {
  return [typeHourly, modelHourly, groupHourly, channelGroupHourly, userModelDaily, userTokenDaily].map(
    (table) => new LogHourlyRepository<HourlyKey>(db, dialect, table),
  );
}
