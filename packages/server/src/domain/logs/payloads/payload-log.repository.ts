import type { Insertable, Kysely, Selectable } from 'kysely';
import type { LogPayloadsTable } from '../../../core/db/log-schema.ts';
import type { Database } from '../../../core/db/schema.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';

export type PayloadRow = Required<Omit<Insertable<LogPayloadsTable>, 'id'>>;
export type StoredPayload = Selectable<LogPayloadsTable>;

const payloadColumns = [
  'request_id',
  'user_id',
  'token_id',
  'created_at',
  'is_stream',
  'request_body',
  'response_body',
  'request_truncated',
  'response_truncated',
] as const satisfies ReadonlyArray<keyof PayloadRow>;

const sqlitePayloadInsert = `insert into "switchboard_log_payloads" (${payloadColumns.map((column) => `"${column}"`).join(', ')}) values (${payloadColumns.map(() => '?').join(', ')})`;

/** Rows of `switchboard_log_payloads` (log database): batched inserts, reads by log row, purges by age. */
export class PayloadLogRepository {
  private readonly db: Kysely<Database>;
  private readonly batchWorker: DatabaseHandle['batchWorker'];

  constructor(database: Pick<DatabaseHandle, 'db' | 'batchWorker'>) {
    this.db = database.db;
    this.batchWorker = database.batchWorker;
  }

  /** One transaction; on SQLite committed by the batch worker thread, off the event loop. */
  async insertMany(rows: readonly PayloadRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.batchWorker) {
      const values = rows.map((row) => payloadColumns.map((column) => row[column] ?? null));
      await this.batchWorker.run([{ sql: sqlitePayloadInsert, rows: values }]);
      return;
    }
    await this.db
      .insertInto('switchboard_log_payloads')
      .values([...rows])
      .execute();
  }

  /** The request id of a log row, or undefined when there is no such row. */
  async requestIdOfLog(logId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('logs').select('request_id').where('id', '=', logId).executeTakeFirst();
    return row?.request_id;
  }

  /** The newest payload of a request (a request has at most one). */
  findByRequestId(requestId: string): Promise<StoredPayload | undefined> {
    return this.db.selectFrom('switchboard_log_payloads').selectAll().where('request_id', '=', requestId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  /** Deletes up to `batchSize` of the oldest rows created before the cutoff; answers how many. */
  async deleteBatchBefore(cutoff: number, batchSize: number): Promise<number> {
    const rows = await this.db.selectFrom('switchboard_log_payloads').select('id').where('created_at', '<', cutoff).orderBy('id').limit(batchSize).execute();
    if (rows.length === 0) return 0;
    const result = await this.db
      .deleteFrom('switchboard_log_payloads')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
