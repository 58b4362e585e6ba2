import { describeQuota } from '../../../domain/billing/quota-text.ts';
import type { MidjourneyRow } from '../../../core/db/schema.ts';
import type { TaskPlatformPoller } from '../task-poller.ts';
import { channelKey, type TaskRelayContext } from '../task-relay-context.ts';
import type { MidjourneyPatch, TaskRefund } from '../task-store.repository.ts';
import { callTaskUpstream } from '../task-upstream.ts';
import { modelOfAction } from './midjourney-actions.ts';
import { upstreamTaskListSchema, upstreamTaskSchema, type UpstreamTask } from './midjourney-api.ts';
import type { MidjourneyRepository } from './midjourney.repository.ts';
import { logContentFields } from '../../../domain/logs/log-content.ts';

const failedStatuses: ReadonlySet<string> = new Set(['FAILURE', 'CANCEL']);

/**
 * The row's new columns from the proxy's view of the task; only what the proxy said. The submit
 * time stays ours: the timeout counts from when the caller paid.
 */
function patchFrom(task: UpstreamTask): MidjourneyPatch {
  const patch: MidjourneyPatch = {};
  if (task.status) patch.status = task.status;
  if (task.progress) patch.progress = task.progress;
  if (task.status === 'SUCCESS') patch.progress = '100%';
  if (task.promptEn) patch.prompt_en = task.promptEn;
  if (task.description) patch.description = task.description;
  if (task.state) patch.state = task.state;
  if (task.startTime) patch.start_time = task.startTime;
  if (task.finishTime) patch.finish_time = task.finishTime;
  if (task.imageUrl) patch.image_url = task.imageUrl;
  if (task.videoUrl) patch.video_url = task.videoUrl;
  if (task.videoUrls !== undefined && task.videoUrls !== null) patch.video_urls = JSON.stringify(task.videoUrls);
  if (task.failReason) patch.fail_reason = task.failReason;
  if (Array.isArray(task.buttons)) patch.buttons = JSON.stringify(task.buttons);
  if (task.properties && typeof task.properties === 'object') patch.properties = JSON.stringify(task.properties);
  return patch;
}

/**
 * Follows unfinished drawings: one `list-by-condition` per channel for all its tasks, rows updated
 * with status, progress, image, buttons and fail reason; a failure or a task older than
 * TASK_TIMEOUT_MINUTES ends with its refund (once, see TaskStoreRepository).
 */
export class MidjourneyPolling implements TaskPlatformPoller {
  readonly name = 'midjourney';
  private readonly context: TaskRelayContext;
  private readonly repository: MidjourneyRepository;

  constructor(context: TaskRelayContext, repository: MidjourneyRepository) {
    this.context = context;
    this.repository = repository;
  }

  async poll(nowMs: number): Promise<void> {
    const rows = await this.repository.unfinished(this.context.timing.pollBatchSize);
    const byChannel = new Map<number, MidjourneyRow[]>();
    for (const row of rows) {
      // Drawing times are Unix milliseconds, as the proxy reports them.
      if (Number(row.submit_time) > 0 && Number(row.submit_time) < nowMs - this.context.timing.taskTimeoutMs) {
        await this.fail(row, { status: 'FAILURE', progress: '100%', fail_reason: '任务超时 / task timed out', finish_time: nowMs }, nowMs);
        continue;
      }
      const channelId = Number(row.channel_id);
      byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), row]);
    }
    for (const [channelId, channelRows] of byChannel) await this.pollChannel(channelId, channelRows, nowMs);
  }

  private async pollChannel(channelId: number, rows: MidjourneyRow[], nowMs: number): Promise<void> {
    const { services, timing, store } = this.context;
    const channel = services.channels.get(channelId);
    if (!channel) {
      for (const row of rows) await this.fail(row, { status: 'FAILURE', progress: '100%', fail_reason: 'channel deleted', finish_time: nowMs }, nowMs);
      return;
    }
    const result = await callTaskUpstream(
      {
        url: `${channel.baseUrl}/mj/task/list-by-condition`,
        method: 'POST',
        headers: { 'mj-api-secret': channelKey(channel.keys, services.random) },
        body: { ids: rows.map((row) => row.mj_id) },
      },
      timing.fetchTimeoutMs,
      [...channel.keys, channel.baseUrl],
    );
    // An unreachable proxy: try again next pass (the timeout ends tasks that never come back).
    if (!result.ok || result.answer.status !== 200) return;
    const list = upstreamTaskListSchema.safeParse(result.answer.json);
    if (!list.success) return;
    const tasks = new Map<string, UpstreamTask>();
    for (const item of list.data) {
      const task = upstreamTaskSchema.safeParse(item);
      if (task.success) tasks.set(task.data.id, task.data);
    }
    for (const row of rows) {
      const task = tasks.get(row.mj_id);
      if (!task) continue;
      const patch = patchFrom(task);
      if (task.status && failedStatuses.has(task.status)) await this.fail(row, { ...patch, progress: '100%' }, nowMs);
      else await store.updateMidjourney(row.id, patch);
    }
  }

  private async fail(row: MidjourneyRow, patch: MidjourneyPatch, nowMs: number): Promise<void> {
    const quota = Number(row.quota);
    const reason = patch.fail_reason ?? row.fail_reason ?? '';
    const refund: TaskRefund = {
      userId: Number(row.user_id),
      tokenId: Number(row.token_id),
      channelId: Number(row.channel_id),
      quota,
      log: {
        content: `绘图任务 ${row.mj_id}（${row.action}）失败：${reason}，退还 ${describeQuota(this.context.services.options, quota)}`,
        modelName: modelOfAction(row.action),
        group: '',
        other: {
          task_id: row.mj_id,
          action: row.action,
          fail_reason: reason,
          ...logContentFields('log.drawing_refund', { task_id: row.mj_id, action: row.action, reason, quota }),
        },
        createdAt: Math.floor(nowMs / 1000),
      },
    };
    await this.context.refunds.failMidjourney(row.id, patch, refund);
  }
}
