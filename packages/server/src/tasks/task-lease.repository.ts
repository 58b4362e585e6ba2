import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * A lease row in `switchboard_job_state` that lets one instance at a time poll the task vendors
 * when several share a database: `last_id` holds the lease's expiry (Unix ms), `updated_at` its
 * holder. Taking or renewing it is a compare-and-set on both columns as they were read, so of two
 * instances racing for an expired lease exactly one wins; a holder that dies loses it on expiry.
 */
export class TaskLeaseRepository {
  private readonly db: Kysely<Database>;
  private readonly name: string;

  constructor(db: Kysely<Database>, name: string) {
    this.db = db;
    this.name = name;
  }

  /** Takes or renews the lease until `expiresAt`; false while another holder's lease runs. */
  async acquire(holder: number, now: number, expiresAt: number): Promise<boolean> {
    const row = await this.db.selectFrom('switchboard_job_state').select(['last_id', 'updated_at']).where('name', '=', this.name).executeTakeFirst();
    if (!row) {
      // Two instances inserting at once: the primary key lets one in, the other retries next round.
      const inserted = await this.db
        .insertInto('switchboard_job_state')
        .values({ name: this.name, last_id: expiresAt, updated_at: holder })
        .execute()
        .then(() => true)
        .catch(() => false);
      return inserted;
    }
    const heldBy = Number(row.updated_at);
    const until = Number(row.last_id);
    if (heldBy !== holder && until > now) return false;
    const result = await this.db
      .updateTable('switchboard_job_state')
      .set({ last_id: expiresAt, updated_at: holder })
      .where('name', '=', this.name)
      .where('last_id', '=', row.last_id)
      .where('updated_at', '=', row.updated_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives the lease up at once (a clean shutdown), so a restarted instance need not wait for expiry. */
  async release(holder: number): Promise<void> {
    await this.db.updateTable('switchboard_job_state').set({ last_id: 0 }).where('name', '=', this.name).where('updated_at', '=', holder).execute();
  }
}
