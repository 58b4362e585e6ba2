import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.ts';
import type { JournalMark } from '../../core/platform/append-journal.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import type { BatchStatement } from '../../core/platform/sqlite-batch-worker.ts';
import { type BulkIncrement, mysqlBulkStatements, postgresBulkStatements, type RowDeltas } from './bulk-quota-updates.repository.ts';
import type { PendingDeltas } from './pending-deltas.ts';

/**
 * Rows per statement on PostgreSQL and MySQL, and between two yields to the event loop. MySQL's
 * statement carries every value in its text (about 40 bytes a row against a 16 MiB packet by default).
 */
const defaultRowsPerStatement = 1_000;

// SQLite's batch worker takes plain statements; these are the three updates below, in SQLite's quoting.
const sqliteTokenUpdate = 'update "tokens" set "remain_quota" = "remain_quota" + ?, "used_quota" = "used_quota" + ?, "accessed_time" = ? where "id" = ?';
const sqliteUserUpdate = 'update "users" set "quota" = "quota" + ?, "used_quota" = "used_quota" + ?, "request_count" = "request_count" + ? where "id" = ?';
const sqliteChannelUpdate = 'update "channels" set "used_quota" = "used_quota" + ? where "id" = ?';
const sqliteQuotaMarkUpdate = 'update "switchboard_quota_journal" set "quota_seq" = ? where "name" = ?';

/**
 * A batch's rows by ascending id. Every process locks the rows it writes in the same order (tokens,
 * then users, then channels, each by id), so two writers holding some of the same rows wait for each
 * other instead of each holding what the other needs next: PostgreSQL and MySQL detect that as a
 * deadlock and fail one of the transactions (measured: 8 in a run of two instances × two workers).
 * The chunks are cut from this order, so the locks of successive chunks go on ascending too.
 */
export function byId<Value>(rows: ReadonlyMap<number, Value>): Array<[number, Value]> {
  return [...rows].sort((left, right) => left[0] - right[0]);
}

/**
 * The aggregated quota writes of one batch, in one transaction so a batch is written whole or not at
 * all: relative updates (`quota = quota + delta`), which add up correctly with the writes of other
 * instances and of the console. On SQLite the transaction runs in the batch worker thread. The
 * journal's quota watermark moves in the same transaction (see charge-journal.ts). Rows are locked
 * in one order (`byId`): on PostgreSQL and MySQL each chunk's rows are locked by ascending id before
 * one joined UPDATE adds the chunk's deltas (bulk-quota-updates.repository.ts).
 */
export class QuotaRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: DatabaseHandle['dialect'];
  private readonly batchWorker: DatabaseHandle['batchWorker'];
  private readonly rowsPerStatement: number;

  /** `rowsPerStatement`: the tests make it small to see a table cut in several statements. */
  constructor(database: Pick<DatabaseHandle, 'db' | 'dialect' | 'batchWorker'>, rowsPerStatement = defaultRowsPerStatement) {
    this.db = database.db;
    this.dialect = database.dialect;
    this.batchWorker = database.batchWorker;
    this.rowsPerStatement = rowsPerStatement;
  }

  /**
   * `again`: this batch failed to write before, possibly only in the answer to its COMMIT (the
   * connection lost at that moment), so the journal's watermark tells whether it is already in.
   */
  async writeBatch(batch: PendingDeltas, now: number, mark?: JournalMark, again = false): Promise<void> {
    if (batch.tokens.size === 0 && batch.users.size === 0 && batch.channels.size === 0 && !mark) return;
    if (this.batchWorker) {
      const statements = sqliteStatements(batch, now);
      if (mark) statements.push({ sql: sqliteQuotaMarkUpdate, rows: [[mark.seq, mark.journal]] });
      await this.batchWorker.run(statements);
      return;
    }
    const statements = this.dialect === 'postgres' ? postgresBulkStatements : mysqlBulkStatements;
    await this.db.transaction().execute(async (transaction) => {
      if (mark && again) {
        const written = await transaction.selectFrom('switchboard_quota_journal').select('quota_seq').where('name', '=', mark.journal).executeTakeFirst();
        if (written && Number(written.quota_seq) >= mark.seq) return;
      }
      const parts: Array<[BulkIncrement, RowDeltas]> = [
        [
          { table: 'tokens', columns: ['remain_quota', 'used_quota'], assign: { accessed_time: now } },
          rowDeltas(batch.tokens, (delta) => [delta.remain, delta.used]),
        ],
        [{ table: 'users', columns: ['quota', 'used_quota', 'request_count'] }, rowDeltas(batch.users, (delta) => [delta.quota, delta.used, delta.requests])],
        [{ table: 'channels', columns: ['used_quota'] }, rowDeltas(batch.channels, (used) => [used])],
      ];
      for (const [update, rows] of parts) {
        for (const chunk of chunks(rows, this.rowsPerStatement)) {
          await statements.lock(update, chunk).execute(transaction);
          await statements.increment(update, chunk).execute(transaction);
          // A chunk is a few milliseconds of the server's time; the loop lets requests in between.
          await nextTurn();
        }
      }
      if (mark) await transaction.updateTable('switchboard_quota_journal').set({ quota_seq: mark.seq }).where('name', '=', mark.journal).execute();
    });
  }
}

function sqliteStatements(batch: PendingDeltas, now: number): BatchStatement[] {
  return [
    { sql: sqliteTokenUpdate, rows: byId(batch.tokens).map(([id, delta]) => [delta.remain, delta.used, now, id]) },
    { sql: sqliteUserUpdate, rows: byId(batch.users).map(([id, delta]) => [delta.quota, delta.used, delta.requests, id]) },
    { sql: sqliteChannelUpdate, rows: byId(batch.channels).map(([id, used]) => [used, id]) },
  ];
}

/** A table's deltas by ascending id, each as the list of values its columns add. */
function rowDeltas<Value>(rows: ReadonlyMap<number, Value>, values: (value: Value) => number[]): RowDeltas {
  const sorted = byId(rows);
  return { ids: sorted.map(([id]) => id), deltas: sorted.map(([, value]) => values(value)) };
}

/** Consecutive slices of at most `size` rows, in order (empty for no rows). */
function* chunks(rows: RowDeltas, size: number): Generator<RowDeltas> {
  for (let start = 0; start < rows.ids.length; start += size) {
    yield { ids: rows.ids.slice(start, start + size), deltas: rows.deltas.slice(start, start + size) };
  }
}
