import type { Insertable, Kysely } from 'kysely';
import type { Database, MidjourneyRow, MidjourneysTable } from '../../../core/db/schema.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';
import { finishedStatuses } from '../task-store.repository.ts';

export type NewMidjourney = Insertable<MidjourneysTable>;

/** Rows of `midjourneys` as the relay reads them; every caller-facing read is scoped to its owner. */
export class MidjourneyRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  insert(row: NewMidjourney): Promise<number> {
    return insertReturningId(this.db.insertInto('midjourneys').values(row), this.dialect);
  }

  /** The caller's task by its proxy id (the newest, should a proxy reuse an id). */
  ownedByMjId(userId: number, mjId: string): Promise<MidjourneyRow | undefined> {
    return this.db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();
  }

  ownedByMjIds(userId: number, mjIds: readonly string[]): Promise<MidjourneyRow[]> {
    if (mjIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).where('mj_id', 'in', mjIds).orderBy('id', 'desc').execute();
  }

  /** Any user's task: the image proxy is unauthenticated, as in new-api (the id is the secret). */
  byMjId(mjId: string): Promise<MidjourneyRow | undefined> {
    return this.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();
  }

  /** Tasks the poller still follows, oldest first. */
  unfinished(limit: number): Promise<MidjourneyRow[]> {
    return this.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('status', 'not in', finishedStatuses)
      .where('mj_id', '!=', '')
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
