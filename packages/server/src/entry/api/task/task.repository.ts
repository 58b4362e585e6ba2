import { sql, type Kysely } from 'kysely';
import type { Database, MidjourneyRow, TaskRow } from '../../../core/db/schema.ts';

export interface TaskListFilters {
  userId?: number | undefined;
  channelId?: number | undefined;
  /** `mj_id` for drawings, `task_id` for async tasks. */
  upstreamId?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
}

type Condition = [column: string, operator: '=' | '>=' | '<=', value: string | number];

/** The filters both task tables share, as conditions on their common columns. */
function filterConditions(filters: TaskListFilters, upstreamIdColumn: 'mj_id' | 'task_id'): Condition[] {
  const conditions: Condition[] = [];
  if (filters.userId !== undefined) conditions.push(['user_id', '=', filters.userId]);
  if (filters.channelId !== undefined) conditions.push(['channel_id', '=', filters.channelId]);
  if (filters.upstreamId !== undefined) conditions.push([upstreamIdColumn, '=', filters.upstreamId]);
  if (filters.start !== undefined) conditions.push(['submit_time', '>=', filters.start]);
  if (filters.end !== undefined) conditions.push(['submit_time', '<=', filters.end]);
  return conditions;
}

async function pageOf<Row>(rows: Promise<Row[]>, count: Promise<{ total: number } | undefined>): Promise<{ rows: Row[]; total: number }> {
  const [page, counted] = await Promise.all([rows, count]);
  return { rows: page, total: Number(counted?.total ?? 0) };
}

/** Drawing (Midjourney) and async (Suno) task rows, filtered on their submit time, newest first. */
export class TaskRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async drawings(filters: TaskListFilters, offset: number, limit: number): Promise<{ rows: MidjourneyRow[]; total: number }> {
    let query = this.db.selectFrom('midjourneys');
    for (const [column, operator, value] of filterConditions(filters, 'mj_id')) query = query.where(sql.ref(column), operator, value);
    return pageOf(
      query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select(({ fn }) => fn.countAll<number>().as('total')).executeTakeFirst(),
    );
  }

  async tasks(filters: TaskListFilters, offset: number, limit: number): Promise<{ rows: TaskRow[]; total: number }> {
    let query = this.db.selectFrom('tasks');
    for (const [column, operator, value] of filterConditions(filters, 'task_id')) query = query.where(sql.ref(column), operator, value);
    return pageOf(
      query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select(({ fn }) => fn.countAll<number>().as('total')).executeTakeFirst(),
    );
  }
}
