import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../core/db/schema.ts';
import type { JournalMark } from '../../core/platform/append-journal.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import type { BatchStatement } from '../../core/platform/sqlite-batch-worker.ts';
import type { PendingDeltas } from './pending-deltas.ts';

/** Statements between two yields to the event loop (PostgreSQL and MySQL). */
const statementsPerTurn = 50;

// SQLite's batch worker takes plain statements; these are the three updates below, in SQLite's quoting.
const sqliteTokenUpdate = 'update "tokens" set "remain_quota" = "remain_quota" + ?, "used_quota" = "used_quota" + ?, "accessed_time" = ? where "id" = ?';
const sqliteUserUpdate = 'update "users" set "quota" = "quota" + ?, "used_quota" = "used_quota" + ?, "request_count" = "request_count" + ? where "id" = ?';
const sqliteChannelUpdate = 'update "channels" set "used_quota" = "used_quota" + ? where "id" = ?';
const sqliteQuotaMarkUpdate = 'update "switchboard_quota_journal" set "quota_seq" = ? where "name" = ?';

/**
 * A batch's rows by ascending id. Every process writes the rows it locks in the same order (tokens,
 * then users, then channels, each by id), so two writers holding some of the same rows wait for each
 * other instead of each holding what the other needs next: PostgreSQL and MySQL detect that as a
 * deadlock and fail one of the transactions (measured: 8 in a run of two instances × two workers).
 */
export function byId<Value>(rows: ReadonlyMap<number, Value>): Array<[number, Value]> {
  return [...rows].sort((left, right) => left[0] - right[0]);
}

/**
 * The aggregated quota writes of one batch, in one transaction so a batch is written whole or not at
 * all: relative updates (`quota = quota + delta`), which add up correctly with the writes of other
 * instances and of the console. On SQLite the transaction runs in the batch worker thread. The
 * journal's quota watermark moves in the same transaction (see charge-journal.ts). Rows are locked
 * in one order (`byId`).
 */
export class QuotaRepository {
  private readonly db: Kysely<Database>;
  private readonly batchWorker: DatabaseHandle['batchWorker'];

  constructor(database: Pick<DatabaseHandle, 'db' | 'batchWorker'>) {
    this.db = database.db;
    this.batchWorker = database.batchWorker;
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
    await this.db.transaction().execute(async (transaction) => {
      if (mark && again) {
        const written = await transaction.selectFrom('switchboard_quota_journal').select('quota_seq').where('name', '=', mark.journal).executeTakeFirst();
        if (written && Number(written.quota_seq) >= mark.seq) return;
      }
      let count = 0;
      const pace = async () => {
        count += 1;
        if (count % statementsPerTurn === 0) await nextTurn();
      };
      for (const [id, delta] of byId(batch.tokens)) {
        await transaction
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota + ${delta.remain}`, used_quota: sql`used_quota + ${delta.used}`, accessed_time: now })
          .where('id', '=', id)
          .execute();
        await pace();
      }
      for (const [id, delta] of byId(batch.users)) {
        await transaction
          .updateTable('users')
          .set({ quota: sql`quota + ${delta.quota}`, used_quota: sql`used_quota + ${delta.used}`, request_count: sql`request_count + ${delta.requests}` })
          .where('id', '=', id)
          .execute();
        await pace();
      }
      for (const [id, used] of byId(batch.channels)) {
        await transaction
          .updateTable('channels')
          .set({ used_quota: sql`used_quota + ${used}` })
          .where('id', '=', id)
          .execute();
        await pace();
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
