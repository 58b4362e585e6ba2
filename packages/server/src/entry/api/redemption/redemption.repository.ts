import type { Kysely } from 'kysely';
import { RedemptionStatus } from '@switchboard/contracts';
import { sqlTimestamp } from '../../../core/db/dialect.ts';
import type { Database, NewRedemption, RedemptionRow, RedemptionUpdate } from '../../../core/db/schema.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';
import { startsWithText } from '../../../core/db/like-pattern.ts';

export type { RedemptionRow } from '../../../core/db/schema.ts';

export class RedemptionRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  private live() {
    return this.db.selectFrom('redemptions').selectAll().where('deleted_at', 'is', null);
  }

  list(offset: number, limit: number): Promise<RedemptionRow[]> {
    return this.live().orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('redemptions')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** By id (when the keyword is a number) or by name prefix. */
  search(keyword: string): Promise<RedemptionRow[]> {
    const asId = /^\d+$/.test(keyword) ? Number(keyword) : -1;
    return this.live()
      .where((eb) => eb.or([eb('id', '=', asId), startsWithText('name', keyword)]))
      .orderBy('id', 'desc')
      .limit(1000)
      .execute();
  }

  find(id: number): Promise<RedemptionRow | undefined> {
    return this.live().where('id', '=', id).executeTakeFirst();
  }

  async insertAll(rows: NewRedemption[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += 50)
        await trx
          .insertInto('redemptions')
          .values(rows.slice(start, start + 50))
          .execute();
    });
  }

  /** Changes a code only while it is still unused, so an edit racing a redeem cannot rewrite a used code. */
  async updateUnused(id: number, patch: RedemptionUpdate, usedStatus: number): Promise<boolean> {
    const result = await this.db
      .updateTable('redemptions')
      .set(patch)
      .where('id', '=', id)
      .where('status', '!=', usedStatus)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async softDelete(id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('redemptions')
      .set({ deleted_at: sqlTimestamp(now, this.dialect) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Deletes (softly, as one by one) every code that can no longer be redeemed: used, disabled, or
   * unused past its expiry. Answers how many.
   */
  async softDeleteInvalid(now: Date, nowSeconds: number): Promise<number> {
    const result = await this.db
      .updateTable('redemptions')
      .set({ deleted_at: sqlTimestamp(now, this.dialect) })
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('status', 'in', [RedemptionStatus.used, RedemptionStatus.disabled]),
          eb.and([eb('status', '=', RedemptionStatus.unused), eb('expired_time', '!=', 0), eb('expired_time', '<', nowSeconds)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
