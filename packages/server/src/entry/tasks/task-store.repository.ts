import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import { LogType } from '@switchboard/contracts';
import type { LogsTable } from '../../core/db/log-schema.ts';
import type { Database, MidjourneysTable, TasksTable } from '../../core/db/schema.ts';
import type { LogWriter } from '../../domain/logs/log-writer.repository.ts';

/** Statuses after which a task never changes again (midjourney-proxy's and the Suno API's). */
export const finishedStatuses = ['SUCCESS', 'FAILURE', 'CANCEL'] as const;

export type MidjourneyPatch = Updateable<MidjourneysTable>;
export type TaskPatch = Updateable<TasksTable>;

/** Quota a failed task gives back, and the refund log row that explains it. */
export interface TaskRefund {
  readonly userId: number;
  /** 0 when the task does not know its token (midjourneys has no token column, as in new-api). */
  readonly tokenId: number;
  readonly channelId: number;
  readonly quota: number;
  readonly log: {
    readonly content: string;
    readonly modelName: string;
    readonly group: string;
    readonly other: Record<string, unknown>;
    readonly createdAt: number;
  };
}

type RefundLogRow = Omit<LogsTable, 'id' | 'is_stream'> & { is_stream: number };

/**
 * The one place a task ends: its row moves to its final state only if it is still unfinished (a
 * compare-and-set on the status), and a failure's refund is applied in the same transaction. So a
 * task is refunded exactly once however many pollers, instances or restarts see it fail. The refund
 * log row joins the transaction when the logs live in the main database; with LOG_SQL_DSN it is
 * written right after the commit.
 */
export class TaskStoreRepository {
  private readonly db: Kysely<Database>;
  private readonly logWriter: LogWriter;
  private readonly logsInMainDatabase: boolean;

  constructor(db: Kysely<Database>, logWriter: LogWriter, logsInMainDatabase: boolean) {
    this.db = db;
    this.logWriter = logWriter;
    this.logsInMainDatabase = logsInMainDatabase;
  }

  /** Applies a progress update or a success; false when the row had already finished. */
  async updateMidjourney(id: number, patch: MidjourneyPatch): Promise<boolean> {
    const result = await this.db.updateTable('midjourneys').set(patch).where('id', '=', id).where('status', 'not in', finishedStatuses).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async updateTask(id: number, patch: TaskPatch): Promise<boolean> {
    const result = await this.db.updateTable('tasks').set(patch).where('id', '=', id).where('status', 'not in', finishedStatuses).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends a drawing as failed and refunds it; false (and nothing refunded) when it had already finished. */
  failMidjourney(id: number, patch: MidjourneyPatch, refund: TaskRefund): Promise<boolean> {
    return this.failWithRefund(refund, async (transaction) => {
      const result = await transaction
        .updateTable('midjourneys')
        .set(patch)
        .where('id', '=', id)
        .where('status', 'not in', finishedStatuses)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  failTask(id: number, patch: TaskPatch, refund: TaskRefund): Promise<boolean> {
    return this.failWithRefund(refund, async (transaction) => {
      const result = await transaction.updateTable('tasks').set(patch).where('id', '=', id).where('status', 'not in', finishedStatuses).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  private async failWithRefund(refund: TaskRefund, finish: (transaction: Transaction<Database>) => Promise<boolean>): Promise<boolean> {
    let logRow: RefundLogRow | undefined;
    const finished = await this.db.transaction().execute(async (transaction) => {
      if (!(await finish(transaction))) return false;
      if (refund.quota <= 0) return true;
      const { quota } = refund;
      // Tokens, users, channels: the order the quota flusher locks them in (quota.repository.ts).
      let tokenName = '';
      if (refund.tokenId > 0) {
        await transaction
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota + ${quota}`, used_quota: sql`used_quota - ${quota}` })
          .where('id', '=', refund.tokenId)
          .execute();
        tokenName = (await transaction.selectFrom('tokens').select('name').where('id', '=', refund.tokenId).executeTakeFirst())?.name ?? '';
      }
      await transaction
        .updateTable('users')
        .set({ quota: sql`quota + ${quota}`, used_quota: sql`used_quota - ${quota}` })
        .where('id', '=', refund.userId)
        .execute();
      if (refund.channelId > 0)
        await transaction
          .updateTable('channels')
          .set({ used_quota: sql`used_quota - ${quota}` })
          .where('id', '=', refund.channelId)
          .execute();
      const username = (await transaction.selectFrom('users').select('username').where('id', '=', refund.userId).executeTakeFirst())?.username ?? '';
      logRow = refundLogRow(refund, username, tokenName);
      if (this.logsInMainDatabase) {
        await transaction.insertInto('logs').values(logRow).execute();
        logRow = undefined;
      }
      return true;
    });
    if (logRow) await this.logWriter.record(logRow);
    return finished;
  }
}

function refundLogRow(refund: TaskRefund, username: string, tokenName: string): RefundLogRow {
  return {
    user_id: refund.userId,
    created_at: refund.log.createdAt,
    type: LogType.refund,
    content: refund.log.content,
    username,
    token_name: tokenName,
    model_name: refund.log.modelName,
    quota: refund.quota,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: 0,
    channel_id: refund.channelId,
    token_id: refund.tokenId,
    group: refund.log.group,
    ip: '',
    request_id: '',
    other: JSON.stringify(refund.log.other),
  };
}
