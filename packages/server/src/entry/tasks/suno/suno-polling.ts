import { describeQuota } from '../../../domain/billing/quota-text.ts';
import type { TaskRow } from '../../../core/db/schema.ts';
import type { TaskPlatformPoller } from '../task-poller.ts';
import { channelKey, type TaskRelayContext } from '../task-relay-context.ts';
import type { TaskPatch, TaskRefund } from '../task-store.repository.ts';
import { callTaskUpstream } from '../task-upstream.ts';
import { sunoEnvelopeSchema, sunoModel, sunoTaskSchema, type SunoTask } from './suno-api.ts';
import { readPrivateData } from './suno-view.ts';
import type { SunoRepository } from './suno.repository.ts';
import { logContentFields } from '../../../domain/logs/log-content.ts';

function patchFrom(task: SunoTask, nowSeconds: number): TaskPatch {
  const patch: TaskPatch = { updated_at: nowSeconds };
  if (task.status) patch.status = task.status;
  if (task.progress) patch.progress = task.progress;
  if (task.status === 'SUCCESS' || task.status === 'FAILURE') patch.progress = '100%';
  if (task.fail_reason) patch.fail_reason = task.fail_reason;
  if (task.start_time) patch.start_time = task.start_time;
  if (task.finish_time) patch.finish_time = task.finish_time;
  if (task.data !== undefined && task.data !== null) patch.data = JSON.stringify(task.data);
  return patch;
}

/**
 * Follows unfinished Suno tasks: one batch `POST /suno/fetch {ids}` per channel; a success keeps the
 * charge made at submit, a failure or a task older than TASK_TIMEOUT_MINUTES is refunded (once).
 */
export class SunoPolling implements TaskPlatformPoller {
  readonly name = 'suno';
  private readonly context: TaskRelayContext;
  private readonly repository: SunoRepository;

  constructor(context: TaskRelayContext, repository: SunoRepository) {
    this.context = context;
    this.repository = repository;
  }

  async poll(nowMs: number): Promise<void> {
    const nowSeconds = Math.floor(nowMs / 1000);
    const rows = await this.repository.unfinished(this.context.timing.pollBatchSize);
    const byChannel = new Map<number, TaskRow[]>();
    for (const row of rows) {
      // Task times are Unix seconds (new-api's tasks table).
      if (Number(row.submit_time) * 1000 < nowMs - this.context.timing.taskTimeoutMs) {
        await this.fail(
          row,
          { status: 'FAILURE', progress: '100%', fail_reason: '任务超时 / task timed out', finish_time: nowSeconds, updated_at: nowSeconds },
          nowSeconds,
        );
        continue;
      }
      const channelId = Number(row.channel_id);
      byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), row]);
    }
    for (const [channelId, channelRows] of byChannel) await this.pollChannel(channelId, channelRows, nowSeconds);
  }

  private async pollChannel(channelId: number, rows: TaskRow[], nowSeconds: number): Promise<void> {
    const { services, timing, store } = this.context;
    const channel = services.channels.get(channelId);
    if (!channel) {
      for (const row of rows)
        await this.fail(
          row,
          { status: 'FAILURE', progress: '100%', fail_reason: 'channel deleted', finish_time: nowSeconds, updated_at: nowSeconds },
          nowSeconds,
        );
      return;
    }
    const upstreamIds = rows.map((row) => readPrivateData(row.private_data).upstream_task_id || row.task_id);
    const result = await callTaskUpstream(
      {
        url: `${channel.baseUrl}/suno/fetch`,
        method: 'POST',
        headers: { authorization: `Bearer ${channelKey(channel.keys, services.random)}` },
        body: { ids: upstreamIds, action: '' },
      },
      timing.fetchTimeoutMs,
      [...channel.keys, channel.baseUrl],
    );
    if (!result.ok || result.answer.status !== 200) return;
    const envelope = sunoEnvelopeSchema.safeParse(result.answer.json);
    if (!envelope.success || envelope.data.code !== 'success' || !Array.isArray(envelope.data.data)) return;
    const tasks = new Map<string, SunoTask>();
    for (const item of envelope.data.data) {
      const task = sunoTaskSchema.safeParse(item);
      if (task.success) tasks.set(task.data.task_id, task.data);
    }
    for (const [index, row] of rows.entries()) {
      const task = tasks.get(upstreamIds[index] ?? '');
      if (!task) continue;
      const patch = patchFrom(task, nowSeconds);
      if (task.status === 'FAILURE') await this.fail(row, patch, nowSeconds);
      else await store.updateTask(row.id, patch);
    }
  }

  private async fail(row: TaskRow, patch: TaskPatch, nowSeconds: number): Promise<void> {
    const quota = Number(row.quota);
    const reason = patch.fail_reason ?? row.fail_reason ?? '';
    const refund: TaskRefund = {
      userId: Number(row.user_id),
      tokenId: readPrivateData(row.private_data).token_id,
      channelId: Number(row.channel_id),
      quota,
      log: {
        content: `异步任务 ${row.task_id}（${row.action}）失败：${reason}，退还 ${describeQuota(this.context.services.options, quota)}`,
        modelName: sunoModel(row.action),
        group: row.group,
        other: {
          task_id: row.task_id,
          action: row.action,
          fail_reason: reason,
          ...logContentFields('log.task_refund', { task_id: row.task_id, action: row.action, reason, quota }),
        },
        createdAt: nowSeconds,
      },
    };
    await this.context.refunds.failTask(row.id, patch, refund);
  }
}
