import type { Kysely } from 'kysely';
import { fromBoolean, toBoolean } from '../../../core/db/dialect.ts';
import { inTransaction } from '../../../core/db/in-transaction.ts';
import type { Database } from '../../../core/db/schema.ts';

/** A user's second factor as the service sees it (bigint columns arrive as text on PostgreSQL). */
export interface TwoFactorRecord {
  userId: number;
  secret: string;
  enabled: boolean;
  lastStep: number;
}

/** SQL for the two-factor tables (db/migrations/0017-two-factor.ts). */
export class TwoFactorRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async find(userId: number): Promise<TwoFactorRecord | undefined> {
    const row = await this.db.selectFrom('switchboard_two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    return { userId: Number(row.user_id), secret: row.secret, enabled: toBoolean(row.enabled), lastStep: Number(row.last_step) };
  }

  /** Replaces any pending setup (never an enabled one: the service checks first) and its backup codes. */
  async savePending(userId: number, secret: string, codeHashes: readonly string[], now: number): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await trx.deleteFrom('switchboard_two_factor').where('user_id', '=', userId).where('enabled', '=', fromBoolean(false)).execute();
      await trx.deleteFrom('switchboard_two_factor_backup_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('switchboard_two_factor')
        .values({ user_id: userId, secret, enabled: fromBoolean(false), last_step: 0, created_at: now, enabled_at: 0 })
        .execute();
      await this.insertCodes(trx, userId, codeHashes);
    });
  }

  /** Turns a pending setup on; false when there was none (a parallel enable won). */
  async enable(userId: number, step: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('switchboard_two_factor')
      .set({ enabled: fromBoolean(true), enabled_at: now, last_step: step })
      .where('user_id', '=', userId)
      .where('enabled', '=', fromBoolean(false))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records that the code of `step` was used: succeeds only when no code of this or a later step was
   * taken before, so a replayed code (or two parallel requests with one code) passes once.
   */
  async takeStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('switchboard_two_factor')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('last_step', '<', step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async unusedCodes(userId: number): Promise<Array<{ id: number; codeHash: string }>> {
    const rows = await this.db
      .selectFrom('switchboard_two_factor_backup_codes')
      .select(['id', 'code_hash'])
      .where('user_id', '=', userId)
      .where('used_at', '=', 0)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: Number(row.id), codeHash: row.code_hash }));
  }

  async countUnusedCodes(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('switchboard_two_factor_backup_codes')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', userId)
      .where('used_at', '=', 0)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Marks one backup code used; false when a parallel request used it first. */
  async useCode(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('switchboard_two_factor_backup_codes')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async replaceCodes(userId: number, codeHashes: readonly string[]): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await trx.deleteFrom('switchboard_two_factor_backup_codes').where('user_id', '=', userId).execute();
      await this.insertCodes(trx, userId, codeHashes);
    });
  }

  /** Removes the second factor and its codes; false when the user had none. */
  async remove(userId: number): Promise<boolean> {
    return inTransaction(this.db, async (trx) => {
      await trx.deleteFrom('switchboard_two_factor_backup_codes').where('user_id', '=', userId).execute();
      const result = await trx.deleteFrom('switchboard_two_factor').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });
  }

  private async insertCodes(trx: Kysely<Database>, userId: number, codeHashes: readonly string[]): Promise<void> {
    if (codeHashes.length === 0) return;
    await trx
      .insertInto('switchboard_two_factor_backup_codes')
      .values(codeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash, used_at: 0 })))
      .execute();
  }
}
