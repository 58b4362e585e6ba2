import { ChannelStatus } from '@switchboard/contracts';
import type { ChannelRecord } from '../../relay/cache/channel-cache.ts';
import type { RelayCaller } from '../../relay/pipeline/caller-auth.ts';
import { chargeTask, holdTaskBudget, holdTaskQuota, priceTask } from '../task-billing.ts';
import { chooseTaskChannel } from '../task-caller.ts';
import { taskChannelType } from '../../relay/task-channel-types.ts';
import { channelKey, type TaskRelayContext } from '../task-relay-context.ts';
import { callTaskUpstream } from '../task-upstream.ts';
import { sunoError, sunoSuccess, type SunoAnswer } from './suno-answer.ts';
import { sunoActions, sunoEnvelopeSchema, sunoModel } from './suno-api.ts';
import { sunoPlatform, type SunoRepository } from './suno.repository.ts';

const sunoTypes: ReadonlySet<number> = new Set([taskChannelType.suno]);
/** The Suno API's default model version when a music request names none (as new-api fills it). */
const defaultMusicVersion = 'chirp-v3-0';

export interface SunoSubmitInput {
  readonly caller: RelayCaller;
  /** `music` or `lyrics`, from the path. */
  readonly action: string;
  readonly body: Record<string, unknown>;
  readonly requestId: string;
  readonly requestPath: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A continuation goes to the channel of the song it continues (only that account knows the clip). */
async function channelFor(context: TaskRelayContext, repository: SunoRepository, input: SunoSubmitInput, model: string): Promise<ChannelRecord | SunoAnswer> {
  const { services } = context;
  if (text(input.body.continue_clip_id)) {
    const originId = text(input.body.task_id);
    if (!originId) return sunoError(400, 'invalid_request', 'task_id is required to continue a clip');
    const origin = await repository.ownedByTaskId(input.caller.user.id, originId);
    if (!origin) return sunoError(404, 'task_not_exist');
    const channel = services.channels.get(Number(origin.channel_id));
    if (!channel || channel.status !== ChannelStatus.enabled) return sunoError(503, 'channel_unavailable', 'the channel of this task is disabled or deleted');
    return channel;
  }
  const choice = chooseTaskChannel(services, input.caller, model, sunoTypes);
  if (choice.ok) return choice.channel;
  if (choice.reason === 'model_not_allowed') return sunoError(403, 'model_not_allowed', `this token may not use model ${model}`);
  return sunoError(503, 'model_not_found', `no available channel for model ${model} under group ${input.caller.usingGroup}`);
}

/**
 * One Suno submit: the whole price is held before the vendor is called and charged (with its
 * consume log row) once the vendor accepts the task; the task row then follows it until it
 * succeeds, or fails and is refunded. A refused submit costs nothing.
 */
export async function submitSuno(context: TaskRelayContext, repository: SunoRepository, input: SunoSubmitInput): Promise<SunoAnswer> {
  const { services, timing } = context;
  const { clock } = services;
  const startedAt = clock.now();
  const action = input.action.toUpperCase();
  if (action !== sunoActions.music && action !== sunoActions.lyrics) return sunoError(400, 'invalid_action', `unknown Suno action ${input.action}`);
  const body = { ...input.body };
  if (action === sunoActions.lyrics && !text(body.prompt).trim()) return sunoError(400, 'invalid_request', 'prompt_empty');
  if (action === sunoActions.music && !text(body.mv)) body.mv = defaultMusicVersion;
  const model = sunoModel(action);
  const channel = await channelFor(context, repository, input, model);
  if (!('id' in channel)) return channel;
  const price = priceTask(services, input.caller, model);
  if (!price) return sunoError(400, 'model_price_error', `model ${model} has no price configured`);
  const hold = await holdTaskQuota(services, input.caller, price);
  if (!hold.ok) return sunoError(403, hold.refusedBy === 'user' ? 'insufficient_user_quota' : 'pre_consume_token_quota_failed');
  const { reservation } = hold;
  const overBudget = await holdTaskBudget(services, reservation, price.quota);
  if (overBudget) return sunoError(429, overBudget.code, overBudget.message);
  try {
    const key = channelKey(channel.keys, services.random);
    const result = await callTaskUpstream(
      { url: `${channel.baseUrl}/suno/submit/${action.toLowerCase()}`, method: 'POST', headers: { authorization: `Bearer ${key}` }, body },
      timing.submitTimeoutMs,
      [...channel.keys, channel.baseUrl],
    );
    if (!result.ok) return sunoError(502, 'do_request_failed', result.reason);
    const answer = sunoEnvelopeSchema.safeParse(result.answer.json);
    if (!answer.success) return sunoError(502, 'unmarshal_response_body_failed', `HTTP ${result.answer.status}: ${result.answer.text}`);
    const taskId = typeof answer.data.data === 'string' ? answer.data.data : '';
    if (answer.data.code !== 'success' || !taskId || result.answer.status !== 200) {
      const status = result.answer.status >= 400 ? result.answer.status : 502;
      return sunoError(status, answer.data.code || 'fail_to_submit', answer.data.message || 'the Suno API refused the task');
    }
    const nowSeconds = clock.unixSeconds();
    await repository.insert({
      created_at: nowSeconds,
      updated_at: nowSeconds,
      task_id: taskId,
      platform: sunoPlatform,
      user_id: input.caller.user.id,
      group: input.caller.usingGroup,
      channel_id: channel.id,
      quota: price.quota,
      action,
      status: 'SUBMITTED',
      fail_reason: '',
      submit_time: nowSeconds,
      start_time: 0,
      finish_time: 0,
      progress: '0%',
      properties: JSON.stringify({ input: text(body.prompt) || text(body.gpt_description_prompt) }),
      private_data: JSON.stringify({ token_id: input.caller.token?.id ?? 0, upstream_task_id: taskId }),
      data: null,
    });
    chargeTask(services, reservation, {
      caller: input.caller,
      price,
      channelId: channel.id,
      requestId: input.requestId,
      requestPath: input.requestPath,
      startedAt,
      note: { text: `操作 ${action}，ID ${taskId}`, key: 'log.task_submitted', params: { action, task_id: taskId } },
    });
    return sunoSuccess(taskId);
  } finally {
    services.ledger.refund(reservation);
  }
}
