import { ChannelStatus } from '@switchboard/contracts';
import type { RelayCaller } from '../../relay/pipeline/caller-auth.ts';
import { channelKey, type TaskRelayContext } from '../task-relay-context.ts';
import { renderMessage } from '../../../core/messages/catalogue.ts';
import { outgoingRefusalOf } from '../../../core/platform/outgoing/outgoing-refused.ts';
import { callTaskUpstream, type OpenedAnswer } from '../task-upstream.ts';
import { mjError, type MjAnswer } from './midjourney-answer.ts';
import { mjErrorCode } from './midjourney-api.ts';
import { toMidjourneyTaskView } from './midjourney-view.ts';
import type { MidjourneyRepository } from './midjourney.repository.ts';

function forwarding(context: TaskRelayContext) {
  const { options, clock } = context.services;
  return { enabled: options.getBoolean('MjForwardUrlEnabled'), serverAddress: options.get('ServerAddress'), nonce: () => String(clock.now()) };
}

/** GET /mj/task/:id/fetch, answered from the database: the caller's own task only. */
export async function fetchMidjourneyTask(context: TaskRelayContext, repository: MidjourneyRepository, caller: RelayCaller, mjId: string): Promise<MjAnswer> {
  const row = await repository.ownedByMjId(caller.user.id, mjId);
  if (!row) return mjError(404, 'task_no_found');
  return { status: 200, body: toMidjourneyTaskView(row, forwarding(context)) };
}

/** POST /mj/task/list-by-condition `{ids}`: the caller's tasks among those ids (others are simply absent). */
export async function listMidjourneyTasks(context: TaskRelayContext, repository: MidjourneyRepository, caller: RelayCaller, body: unknown): Promise<MjAnswer> {
  const ids = typeof body === 'object' && body !== null ? (body as { ids?: unknown }).ids : undefined;
  if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))) return mjError(400, 'ids must be a list of task ids');
  const rows = await repository.ownedByMjIds(caller.user.id, (ids ?? []) as string[]);
  const forward = forwarding(context);
  return { status: 200, body: rows.map((row) => toMidjourneyTaskView(row, forward)) };
}

/** GET /mj/task/:id/image-seed: asked of the channel that made the image (the seed lives only there). */
export async function fetchImageSeed(context: TaskRelayContext, repository: MidjourneyRepository, caller: RelayCaller, mjId: string): Promise<MjAnswer> {
  const row = await repository.ownedByMjId(caller.user.id, mjId);
  if (!row) return mjError(404, 'task_no_found');
  const channel = context.services.channels.get(Number(row.channel_id));
  if (!channel) return mjError(503, 'get_channel_info_failed');
  if (channel.status !== ChannelStatus.enabled) return mjError(503, 'the channel of this task is disabled');
  const result = await callTaskUpstream(
    {
      url: `${channel.baseUrl}/mj/task/${encodeURIComponent(mjId)}/image-seed`,
      method: 'GET',
      headers: { 'mj-api-secret': channelKey(channel.keys, context.services.random) },
    },
    context.timing.fetchTimeoutMs,
    [...channel.keys, channel.baseUrl],
  );
  if (!result.ok) return mjError(502, `do_request_failed: ${result.reason}`, mjErrorCode.unknown);
  if (result.answer.json === undefined) return mjError(502, `unmarshal_response_body_failed: ${result.answer.text}`, mjErrorCode.unknown);
  return { status: result.answer.status, body: result.answer.json };
}

export type ImageAnswer = { ok: true; response: OpenedAnswer } | { ok: false; status: number; error: string };

/**
 * GET /mj/image/:id, unauthenticated as in new-api (the task id is hard to guess): the image the
 * proxy stored for the task, streamed through, so MjForwardUrlEnabled never shows the proxy's host.
 */
export async function proxyMidjourneyImage(context: TaskRelayContext, repository: MidjourneyRepository, mjId: string): Promise<ImageAnswer> {
  const row = await repository.byMjId(mjId);
  if (!row?.image_url) return { ok: false, status: 404, error: 'midjourney_task_not_found' };
  try {
    // The address comes from the proxy's answer: the outgoing-request policy judges it (new-api: 403 "request blocked").
    const response = await context.services.outgoing.open({ url: row.image_url, timeoutMs: context.timing.fetchTimeoutMs });
    if (response.statusCode !== 200) {
      response.body.resume();
      return { ok: false, status: response.statusCode, error: 'http_get_image_failed' };
    }
    return { ok: true, response };
  } catch (error) {
    const refusal = outgoingRefusalOf(error);
    if (refusal) return { ok: false, status: 403, error: `request blocked: ${renderMessage(refusal.localized, 'en', refusal.params)}` };
    return { ok: false, status: 502, error: 'http_get_image_failed' };
  }
}
