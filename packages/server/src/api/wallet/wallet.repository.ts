import type { Kysely, Selectable, Transaction } from 'kysely';
import { sql } from 'kysely';
import { RedemptionStatus } from '@switchboard/contracts';
import type { Database, RedemptionsTable, TopUpsTable } from '../../db/schema.ts';

export const topUpStatus = { pending: 'pending', success: 'success' } as const;

/**
 * The money-moving statements. Each takes its transaction and is a compare-and-set (`WHERE status =
 * <before>`), so of two concurrent calls exactly one changes the row; the other sees 0 rows and stops.
 */
export class WalletRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  findRedemption(trx: Transaction<Database>, key: string): Promise<Selectable<RedemptionsTable> | undefined> {
    return trx.selectFrom('redemptions').selectAll().where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();
  }

  async markRedemptionUsed(trx: Transaction<Database>, id: number, userId: number, now: number): Promise<boolean> {
    const result = await trx
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.used, used_user_id: userId, redeemed_time: now })
      .where('id', '=', id)
      .where('status', '=', RedemptionStatus.unused)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async addUserQuota(trx: Transaction<Database>, userId: number, quota: number): Promise<void> {
    await trx.updateTable('users').set({ quota: sql`quota + ${quota}` }).where('id', '=', userId).execute();
  }

  async username(trx: Transaction<Database>, userId: number): Promise<string> {
    const row = await trx.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
    return row?.username ?? '';
  }

  async userGroup(userId: number): Promise<string> {
    const row = await this.db.selectFrom('users').select('group').where('id', '=', userId).executeTakeFirst();
    return row?.group ?? 'default';
  }

  async insertTopUp(row: Omit<Selectable<TopUpsTable>, 'id'>): Promise<void> {
    await this.db.insertInto('top_ups').values(row).execute();
  }

  findTopUp(trx: Transaction<Database>, tradeNo: string): Promise<Selectable<TopUpsTable> | undefined> {
    return trx.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();
  }

  async completeTopUp(trx: Transaction<Database>, id: number, now: number): Promise<boolean> {
    const result = await trx.updateTable('top_ups').set({ status: topUpStatus.success, complete_time: now }).where('id', '=', id).where('status', '=', topUpStatus.pending).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  listTopUps(userId: number, offset: number, limit: number): Promise<Selectable<TopUpsTable>[]> {
    return this.db.selectFrom('top_ups').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }
}
