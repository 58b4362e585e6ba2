import type { Kysely } from 'kysely';
import { sqlTimestamp } from '../../../core/db/dialect.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import type { Database, PrefillGroupRow } from '../../../core/db/schema.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';

export type { PrefillGroupRow } from '../../../core/db/schema.ts';

export interface PrefillGroupColumns {
  name: string;
  type: string;
  items: string;
  description: string;
}

/** `prefill_groups`, live rows only (new-api deletes softly). */
export class PrefillGroupRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  private live() {
    return this.db.selectFrom('prefill_groups').selectAll().where('deleted_at', 'is', null);
  }

  /** Newest change first, optionally of one type, as new-api lists them. */
  list(type: string): Promise<PrefillGroupRow[]> {
    const query = type ? this.live().where('type', '=', type) : this.live();
    return query.orderBy('updated_time', 'desc').orderBy('id', 'desc').execute();
  }

  find(id: number): Promise<PrefillGroupRow | undefined> {
    return this.live().where('id', '=', id).executeTakeFirst();
  }

  /** Whether a live group other than `exceptId` has this name. */
  async nameTaken(name: string, exceptId: number): Promise<boolean> {
    return (await this.live().where('name', '=', name).where('id', '<>', exceptId).executeTakeFirst()) !== undefined;
  }

  insert(columns: PrefillGroupColumns, now: number): Promise<number> {
    return insertReturningId(this.db.insertInto('prefill_groups').values({ ...columns, created_time: now, updated_time: now }), this.dialect);
  }

  async update(id: number, columns: Partial<PrefillGroupColumns>, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('prefill_groups')
      .set({ ...columns, updated_time: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async softDelete(id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('prefill_groups')
      .set({ deleted_at: sqlTimestamp(now, this.dialect) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
