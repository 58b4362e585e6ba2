import type { Insertable, Kysely } from 'kysely';
import type { Database, TaskRow, TasksTable } from '../../../core/db/schema.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';
import { finishedStatuses } from '../task-store.repository.ts';

export type NewSunoTask = Insertable<TasksTable>;

export const sunoPlatform = 'suno';

/** Suno rows of `tasks`; every caller-facing read is scoped to its owner. */
export class SunoRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  insert(row: NewSunoTask): Promise<number> {
    return insertReturningId(this.db.insertInto('tasks').values(row), this.dialect);
  }

  ownedByTaskId(userId: number, taskId: string): Promise<TaskRow | undefined> {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('platform', '=', sunoPlatform)
      .where('user_id', '=', userId)
      .where('task_id', '=', taskId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  ownedByTaskIds(userId: number, taskIds: readonly string[]): Promise<TaskRow[]> {
    if (taskIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('platform', '=', sunoPlatform)
      .where('user_id', '=', userId)
      .where('task_id', 'in', taskIds)
      .orderBy('id', 'desc')
      .execute();
  }

  unfinished(limit: number): Promise<TaskRow[]> {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('platform', '=', sunoPlatform)
      .where('status', 'not in', finishedStatuses)
      .where('task_id', '!=', '')
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
