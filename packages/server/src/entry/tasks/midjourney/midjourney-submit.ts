import { ChannelStatus } from '@switchboard/contracts';
import type { MidjourneyRow } from '../../../core/db/schema.ts';
import type { ChannelRecord } from '../../relay/cache/channel-cache.ts';
import type { RelayCaller } from '../../relay/pipeline/caller-auth.ts';
import { chargeTask, holdTaskBudget, holdTaskQuota, priceTask } from '../task-billing.ts';
import { chooseTaskChannel } from '../task-caller.ts';
import { taskChannelType } from '../../relay/task-channel-types.ts';
import { channelKey, type TaskRelayContext } from '../task-relay-context.ts';
import { callTaskUpstream } from '../task-upstream.ts';
import { actionOfCustomId, mjAction, modelOfAction, parseSimpleChange, type SubmitRoute } from './midjourney-actions.ts';
import { mjError, type MjAnswer } from './midjourney-answer.ts';
import { acceptedCodes, mjErrorCode, noAccountCode, submitAnswerSchema, type SubmitAnswer } from './midjourney-api.ts';
import { midjourneySubmitNote } from './midjourney-submit-note.ts';
import type { MidjourneyRepository } from './midjourney.repository.ts';

const anyMidjourney: ReadonlySet<number> = new Set([taskChannelType.midjourney, taskChannelType.midjourneyPlus]);
const plusOnly: ReadonlySet<number> = new Set([taskChannelType.midjourneyPlus]);

export interface MjSubmitInput {
  readonly caller: RelayCaller;
  readonly route: SubmitRoute;
  /** '' or `/mj-fast`, `/mj-turbo`, `/mj-relax`. */
  readonly modePrefix: string;
  readonly body: Record<string, unknown>;
  readonly requestId: string;
  readonly requestPath: string;
}

type Resolved = { ok: true; action: string; origin: MidjourneyRow | undefined } | { ok: false; answer: MjAnswer };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The action a submit asks for and, for a follow-up (change, action, modal), the caller's earlier task it acts on. */
async function resolveAction(input: MjSubmitInput, repository: MidjourneyRepository, checkSuccess: boolean): Promise<Resolved> {
  const { route, body } = input;
  let action = route.action ?? '';
  let originId = '';
  switch (route.kind) {
    case 'fixed':
      if (action === mjAction.imagine && !text(body.prompt).trim()) return { ok: false, answer: mjError(400, 'prompt_is_required') };
      if (action === mjAction.swapFace && (!text(body.sourceBase64) || !text(body.targetBase64)))
        return { ok: false, answer: mjError(400, 'sour_base64_and_target_base64_is_required') };
      return { ok: true, action, origin: undefined };
    case 'change':
      action = text(body.action).toUpperCase();
      originId = text(body.taskId);
      if (!originId) return { ok: false, answer: mjError(400, 'task_id_is_required') };
      if (![mjAction.upscale, mjAction.variation, mjAction.reroll].includes(action as 'UPSCALE'))
        return { ok: false, answer: mjError(400, 'action_is_required') };
      if (action !== mjAction.reroll && !Number(body.index)) return { ok: false, answer: mjError(400, 'index_is_required') };
      break;
    case 'simple-change': {
      const parsed = parseSimpleChange(text(body.content));
      if (!parsed) return { ok: false, answer: mjError(400, 'content_parse_failed') };
      action = parsed.action;
      originId = parsed.taskId;
      break;
    }
    case 'action': {
      if (!text(body.customId)) return { ok: false, answer: mjError(400, 'custom_id_is_required') };
      const parsed = actionOfCustomId(text(body.customId));
      if (!parsed.ok) return { ok: false, answer: mjError(400, parsed.description) };
      action = parsed.action;
      originId = text(body.taskId);
      if (!originId) return { ok: false, answer: mjError(400, 'task_id_is_required') };
      break;
    }
    case 'modal':
      action = mjAction.modal;
      originId = text(body.taskId);
      if (!originId) return { ok: false, answer: mjError(400, 'task_id_is_required') };
      break;
  }
  const origin = await repository.ownedByMjId(input.caller.user.id, originId);
  if (!origin) return { ok: false, answer: mjError(404, 'task_not_found') };
  // Buttons only exist on a finished image; the modal completes a task still waiting for input.
  if (checkSuccess && route.kind !== 'modal' && origin.status !== 'SUCCESS') return { ok: false, answer: mjError(400, 'task_status_not_success') };
  return { ok: true, action, origin };
}

/** The channel: a follow-up goes to the channel that made the original image; others are selected by model. */
function resolveChannel(context: TaskRelayContext, input: MjSubmitInput, model: string, origin: MidjourneyRow | undefined): ChannelRecord | MjAnswer {
  const { services } = context;
  const allowed = input.route.plusOnly ? plusOnly : anyMidjourney;
  const plusRequired = mjError(400, `${input.route.path} needs a Midjourney Proxy Plus channel (type 5); Midjourney Proxy (type 2) does not serve it`);
  if (origin) {
    const channel = services.channels.get(Number(origin.channel_id));
    if (!channel) return mjError(503, 'get_channel_info_failed');
    if (channel.status !== ChannelStatus.enabled) return mjError(503, 'the channel of this task is disabled');
    return allowed.has(channel.type) ? channel : plusRequired;
  }
  const choice = chooseTaskChannel(services, input.caller, model, allowed);
  if (choice.ok) return choice.channel;
  if (choice.reason === 'model_not_allowed') return mjError(403, `this token may not use model ${model}`);
  if (choice.reason === 'wrong_type' && input.route.plusOnly) return plusRequired;
  return mjError(503, `no available channel for model ${model} under group ${input.caller.usingGroup}`);
}

/**
 * What the proxy receives: the caller's body without the callback (unless MjNotifyEnabled) or the
 * account filter (unless MjAccountFilterEnabled); with MjModeClearEnabled the speed flags leave the
 * prompt and the mode prefix the path, otherwise both pass on as the caller sent them.
 */
function upstreamRequest(context: TaskRelayContext, input: MjSubmitInput): { path: string; body: Record<string, unknown> } {
  const { options } = context.services;
  const body = { ...input.body };
  if (!options.getBoolean('MjNotifyEnabled')) delete body.notifyHook;
  if (!options.getBoolean('MjAccountFilterEnabled')) delete body.accountFilter;
  const clearMode = options.getBoolean('MjModeClearEnabled');
  if (clearMode && typeof body.prompt === 'string') body.prompt = body.prompt.replace(/--(fast|relax|turbo)\b/g, '').trim();
  return { path: `${clearMode ? '' : input.modePrefix}${input.route.path}`, body };
}

function submitRow(input: MjSubmitInput, answer: SubmitAnswer, fields: { action: string; prompt: string; channelId: number; quota: number; now: number }) {
  const accepted = acceptedCodes.has(answer.code);
  const properties = typeof answer.properties === 'object' && answer.properties !== null ? (answer.properties as Record<string, unknown>) : {};
  // 21: the proxy already has this task; when it is finished its image comes with the answer.
  const finishedDuplicate = answer.code === 21 && properties.status === 'SUCCESS' && typeof properties.imageUrl === 'string';
  const uploaded = answer.code === 1 && fields.action === mjAction.upload;
  const done = finishedDuplicate || uploaded;
  return {
    code: answer.code,
    user_id: input.caller.user.id,
    token_id: input.caller.token?.id ?? 0,
    action: fields.action,
    mj_id: typeof answer.result === 'string' ? answer.result : '',
    prompt: fields.prompt,
    prompt_en: '',
    description: answer.description ?? '',
    state: text(input.body.state),
    submit_time: fields.now,
    start_time: done ? fields.now : 0,
    finish_time: done ? fields.now : 0,
    image_url: finishedDuplicate ? String(properties.imageUrl) : '',
    video_url: '',
    video_urls: '',
    status: !accepted ? 'FAILURE' : done ? 'SUCCESS' : 'SUBMITTED',
    progress: !accepted || done ? '100%' : '0%',
    fail_reason: accepted ? '' : (answer.description ?? ''),
    channel_id: fields.channelId,
    // Only an accepted task is charged, so only it has anything to refund.
    quota: accepted ? fields.quota : 0,
    buttons: '',
    properties: JSON.stringify(properties),
  };
}

/**
 * One Midjourney submit, as new-api runs it: resolve the action and its model, choose the channel,
 * hold the action's price, call the proxy; a task it accepts (code 1, 21, 22) is recorded and
 * charged with a consume log row, anything else is recorded as failed and costs nothing. The caller
 * gets the proxy's answer, with 21 and 22 reported as 1 (submitted) as new-api does.
 */
export async function submitMidjourney(context: TaskRelayContext, repository: MidjourneyRepository, input: MjSubmitInput): Promise<MjAnswer> {
  const { services, timing } = context;
  const { options, clock } = services;
  const startedAt = clock.now();
  const resolved = await resolveAction(input, repository, options.getBoolean('MjActionCheckSuccessEnabled'));
  if (!resolved.ok) return resolved.answer;
  const { action, origin } = resolved;
  const model = modelOfAction(action);
  const channel = resolveChannel(context, input, model, origin);
  if (!('id' in channel)) return channel;
  const price = priceTask(services, input.caller, model);
  if (!price) return mjError(400, `model ${model} has no price configured`);
  const hold = await holdTaskQuota(services, input.caller, price);
  if (!hold.ok) return mjError(403, hold.refusedBy === 'user' ? 'quota_not_enough' : 'token_quota_not_enough');
  const { reservation } = hold;
  const overBudget = await holdTaskBudget(services, reservation, price.quota);
  if (overBudget) return mjError(429, overBudget.message);
  try {
    const key = channelKey(channel.keys, services.random);
    const request = upstreamRequest(context, input);
    const result = await callTaskUpstream(
      { url: `${channel.baseUrl}${request.path}`, method: 'POST', headers: { 'mj-api-secret': key }, body: request.body },
      timing.submitTimeoutMs,
      [...channel.keys, channel.baseUrl],
    );
    if (!result.ok) return mjError(502, `do_request_failed: ${result.reason}`, mjErrorCode.unknown);
    const parsed = submitAnswerSchema.safeParse(result.answer.json);
    if (!parsed.success) return mjError(502, `unmarshal_response_body_failed (HTTP ${result.answer.status}): ${result.answer.text}`, mjErrorCode.unknown);
    const answer = parsed.data;
    if (answer.code === noAccountCode) services.health.disableAfterError(channel, 'No available account instance');
    const accepted = result.answer.status === 200 && acceptedCodes.has(answer.code);
    const prompt = origin ? (origin.prompt ?? '') : text(input.body.prompt);
    await repository.insert(submitRow(input, answer, { action, prompt, channelId: channel.id, quota: price.quota, now: clock.now() }));
    if (!accepted) return { status: result.answer.status, body: result.answer.json };
    const mjId = typeof answer.result === 'string' ? answer.result : '';
    chargeTask(services, reservation, {
      caller: input.caller,
      price,
      channelId: channel.id,
      requestId: input.requestId,
      requestPath: input.requestPath,
      startedAt,
      note: midjourneySubmitNote(price, action, mjId),
    });
    // Inpaint and custom zoom keep 21: their client must open the modal next.
    const keepCode = answer.code === 21 && (action === mjAction.inpaint || action === mjAction.customZoom);
    return { status: 200, body: { ...answer, code: keepCode ? answer.code : 1 } };
  } finally {
    // Nothing happens when the hold became the charge above.
    services.ledger.refund(reservation);
  }
}
