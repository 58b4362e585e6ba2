import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.ts';

export interface MoveOverOrigin {
  source: string;
  report: string | null;
  mapped_at: number;
  dismissed_at: number;
}

/** The origin row of `switchboard_move_over` (db/move-over/move-over-tables.ts). */
export class MoveOverRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Undefined on a database Switchboard created itself (migration 0024 creates the table everywhere). */
  async origin(): Promise<MoveOverOrigin | undefined> {
    return this.db
      .selectFrom('switchboard_move_over')
      .select(['source', 'report', 'mapped_at', 'dismissed_at'])
      .where('name', '=', 'origin')
      .executeTakeFirst();
  }

  async dismiss(at: number): Promise<void> {
    await this.db.updateTable('switchboard_move_over').set({ dismissed_at: at }).where('name', '=', 'origin').where('dismissed_at', '=', 0).execute();
  }
}
