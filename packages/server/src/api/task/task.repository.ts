import type { Kysely, Selectable } from 'kysely';
import type { Database, MidjourneysTable, TasksTable } from '../../db/schema.ts';

export interface TaskListFilters {
  userId?: number | undefined;
  channelId?: number | undefined;
  /** `mj_id` for drawings, `task_id` for async tasks. */
  upstreamId?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
}

/** Drawing (Midjourney) and async (Suno) task rows, filtered on their submit time, newest first. */
export class TaskRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async drawings(filters: TaskListFilters, offset: number, limit: number): Promise<{ rows: Selectable<MidjourneysTable>[]; total: number }> {
    let query = this.db.selectFrom('midjourneys');
    if (filters.userId !== undefined) query = query.where('user_id', '=', filters.userId);
    if (filters.channelId !== undefined) query = query.where('channel_id', '=', filters.channelId);
    if (filters.upstreamId !== undefined) query = query.where('mj_id', '=', filters.upstreamId);
    if (filters.start !== undefined) query = query.where('submit_time', '>=', filters.start);
    if (filters.end !== undefined) query = query.where('submit_time', '<=', filters.end);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select(({ fn }) => fn.countAll<number>().as('total')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.total ?? 0) };
  }

  async tasks(filters: TaskListFilters, offset: number, limit: number): Promise<{ rows: Selectable<TasksTable>[]; total: number }> {
    let query = this.db.selectFrom('tasks');
    if (filters.userId !== undefined) query = query.where('user_id', '=', filters.userId);
    if (filters.channelId !== undefined) query = query.where('channel_id', '=', filters.channelId);
    if (filters.upstreamId !== undefined) query = query.where('task_id', '=', filters.upstreamId);
    if (filters.start !== undefined) query = query.where('submit_time', '>=', filters.start);
    if (filters.end !== undefined) query = query.where('submit_time', '<=', filters.end);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select(({ fn }) => fn.countAll<number>().as('total')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.total ?? 0) };
  }
}
