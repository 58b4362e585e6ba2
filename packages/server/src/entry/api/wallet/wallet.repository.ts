import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { RedemptionStatus } from '@switchboard/contracts';
import { inTransaction } from '../../../core/db/in-transaction.ts';
import type { Database, RedemptionRow, TopUpRow } from '../../../core/db/schema.ts';

export const topUpStatus = { pending: 'pending', success: 'success' } as const;

/**
 * The money-moving statements, run on the repository a `transaction` hands out. Each is a
 * compare-and-set (`WHERE status = <before>`), so of two concurrent calls exactly one changes the row;
 * the other sees 0 rows and stops.
 */
export class WalletRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Runs `work` in one transaction, given this repository bound to it. */
  transaction<T>(work: (wallet: WalletRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new WalletRepository(trx)));
  }

  findRedemption(key: string): Promise<RedemptionRow | undefined> {
    return this.db.selectFrom('redemptions').selectAll().where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();
  }

  async markRedemptionUsed(id: number, userId: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.used, used_user_id: userId, redeemed_time: now })
      .where('id', '=', id)
      .where('status', '=', RedemptionStatus.unused)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async addUserQuota(userId: number, quota: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ quota: sql`quota + ${quota}` })
      .where('id', '=', userId)
      .execute();
  }

  async username(userId: number): Promise<string> {
    const row = await this.db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
    return row?.username ?? '';
  }

  async userGroup(userId: number): Promise<string> {
    const row = await this.db.selectFrom('users').select('group').where('id', '=', userId).executeTakeFirst();
    return row?.group ?? 'default';
  }

  async insertTopUp(row: Omit<TopUpRow, 'id'>): Promise<void> {
    await this.db.insertInto('top_ups').values(row).execute();
  }

  findTopUp(tradeNo: string): Promise<TopUpRow | undefined> {
    return this.db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();
  }

  async completeTopUp(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('top_ups')
      .set({ status: topUpStatus.success, complete_time: now })
      .where('id', '=', id)
      .where('status', '=', topUpStatus.pending)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** new-api's columns of the caller's orders (not the quota an order credits, which is ours). */
  listTopUps(userId: number, offset: number, limit: number): Promise<Omit<TopUpRow, 'quota'>[]> {
    return this.db
      .selectFrom('top_ups')
      .select(['id', 'user_id', 'amount', 'money', 'trade_no', 'payment_method', 'create_time', 'complete_time', 'status'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
