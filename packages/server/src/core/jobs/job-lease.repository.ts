import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Whether a lease was taken, and when the current holder's lease ends (Unix ms) when it was not. */
export interface LeaseAttempt {
  readonly acquired: boolean;
  readonly heldUntil: number;
}

/**
 * Leases in `switchboard_job_state` that let one instance at a time run a background job when
 * several share a database: one row per job holds the lease's expiry (Unix ms) in `last_id`
 * and its holder in `updated_at`. Taking or renewing it is a compare-and-set on both columns as they
 * were read, so of two instances racing for an expired lease exactly one wins; a holder that dies
 * loses it on expiry.
 */
export class JobLeaseRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Takes or renews the lease on `name` until `expiresAt`; refused while another holder's lease runs. */
  async acquire(name: string, holder: number, now: number, expiresAt: number): Promise<LeaseAttempt> {
    const row = await this.db.selectFrom('switchboard_job_state').select(['last_id', 'updated_at']).where('name', '=', name).executeTakeFirst();
    if (!row) {
      // Two instances inserting at once: the primary key lets one in, the other tries again next time.
      return this.db
        .insertInto('switchboard_job_state')
        .values({ name, last_id: expiresAt, updated_at: holder })
        .execute()
        .then(() => ({ acquired: true, heldUntil: expiresAt }))
        .catch(() => ({ acquired: false, heldUntil: now }));
    }
    const heldUntil = Number(row.last_id);
    const mine = Number(row.updated_at) === holder;
    if (!mine && heldUntil > now) return { acquired: false, heldUntil };
    // Already held that long: nothing to write (MySQL would report an unchanged row as not updated).
    if (mine && heldUntil >= expiresAt) return { acquired: true, heldUntil };
    const result = await this.db
      .updateTable('switchboard_job_state')
      .set({ last_id: expiresAt, updated_at: holder })
      .where('name', '=', name)
      .where('last_id', '=', row.last_id)
      .where('updated_at', '=', row.updated_at)
      .executeTakeFirst();
    // Lost the race: whoever won holds it for a while, so look again in a moment.
    return Number(result.numUpdatedRows) > 0 ? { acquired: true, heldUntil: expiresAt } : { acquired: false, heldUntil: now };
  }

  /** Gives the lease up at once (a clean shutdown), so another instance need not wait for expiry. */
  async release(name: string, holder: number): Promise<void> {
    await this.db.updateTable('switchboard_job_state').set({ last_id: 0 }).where('name', '=', name).where('updated_at', '=', holder).execute();
  }
}
