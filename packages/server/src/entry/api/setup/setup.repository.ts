import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.ts';
import { setupPending } from '../../../core/db/setup-pending.ts';

/** The `setups` table: whether the first-run setup is still to be done, and marking it done. */
export class SetupRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /**
   * Pending only when every row is a first start's pending row. No row at all is a database from
   * before setups existed (one-api, old new-api): in use already, as new-api counts it.
   */
  async isPending(): Promise<boolean> {
    const rows = await this.db.selectFrom('setups').select('initialized_at').execute();
    return rows.length > 0 && rows.every((row) => Number(row.initialized_at) === setupPending);
  }

  /** Marks the setup done; false when another request did so first (only one setup wins). */
  async markDone(version: string, now: number): Promise<boolean> {
    const result = await this.db.updateTable('setups').set({ version, initialized_at: now }).where('initialized_at', '=', setupPending).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
