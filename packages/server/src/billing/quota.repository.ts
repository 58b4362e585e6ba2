import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PendingDeltas } from './pending-deltas.ts';

/** Statements between two yields to the event loop (SQLite runs each statement synchronously). */
const statementsPerTurn = 50;

/**
 * The aggregated quota writes of one batch, in one transaction so a batch is written whole or not at
 * all: relative updates (`quota = quota + delta`), which add up correctly with the writes of other
 * instances and of the console.
 */
export class QuotaRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async writeBatch(batch: PendingDeltas, now: number): Promise<void> {
    if (batch.tokens.size === 0 && batch.users.size === 0 && batch.channels.size === 0) return;
    await this.db.transaction().execute(async (transaction) => {
      let count = 0;
      const pace = async () => {
        count += 1;
        if (count % statementsPerTurn === 0) await nextTurn();
      };
      for (const [id, delta] of batch.tokens) {
        await transaction
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota + ${delta.remain}`, used_quota: sql`used_quota + ${delta.used}`, accessed_time: now })
          .where('id', '=', id)
          .execute();
        await pace();
      }
      for (const [id, delta] of batch.users) {
        await transaction
          .updateTable('users')
          .set({ quota: sql`quota + ${delta.quota}`, used_quota: sql`used_quota + ${delta.used}`, request_count: sql`request_count + ${delta.requests}` })
          .where('id', '=', id)
          .execute();
        await pace();
      }
      for (const [id, used] of batch.channels) {
        await transaction.updateTable('channels').set({ used_quota: sql`used_quota + ${used}` }).where('id', '=', id).execute();
        await pace();
      }
    });
  }
}
