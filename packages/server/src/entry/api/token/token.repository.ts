import type { Kysely } from 'kysely';
import { sqlTimestamp } from '../../../core/db/dialect.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import type { Database, NewToken, TokenRow, TokenUpdate } from '../../../core/db/schema.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';
import { containsText } from '../../../core/db/like-pattern.ts';

/** Tokens of one user; deleted tokens (soft delete, as in new-api) are invisible everywhere. */
export class TokenRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  private live(userId: number) {
    return this.db.selectFrom('tokens').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null);
  }

  list(userId: number, offset: number, limit: number): Promise<TokenRow[]> {
    return this.live(userId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('tokens')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  search(userId: number, name: string, key: string): Promise<TokenRow[]> {
    let query = this.live(userId);
    if (name) query = query.where(containsText('name', name));
    if (key) query = query.where(containsText('key', key));
    return query.orderBy('id', 'desc').limit(1000).execute();
  }

  find(userId: number, id: number): Promise<TokenRow | undefined> {
    return this.live(userId).where('id', '=', id).executeTakeFirst();
  }

  async insertAll(rows: NewToken[]): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const ids: number[] = [];
      for (const row of rows) ids.push(await insertReturningId(trx.insertInto('tokens').values(row), this.dialect));
      return ids;
    });
  }

  async update(userId: number, id: number, patch: TokenUpdate): Promise<void> {
    await this.db.updateTable('tokens').set(patch).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).execute();
  }

  async softDelete(userId: number, id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('tokens')
      .set({ deleted_at: sqlTimestamp(now, this.dialect) })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
