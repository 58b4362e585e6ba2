import { LogType } from '@switchboard/contracts';
import type { ModelPricing } from '../../../domain/billing/pricing.ts';
import type { LogEntry } from '../../../domain/logs/log-row.ts';
import type { NormalizedUsage } from '../provider.ts';
import type { RelayCaller } from './caller-auth.ts';

export interface ConsumeFacts {
  readonly caller: RelayCaller;
  readonly model: string;
  readonly upstreamModel: string;
  readonly pricing: ModelPricing;
  readonly usage: NormalizedUsage;
  readonly quota: number;
  readonly channelId: number;
  readonly triedChannels: readonly number[];
  readonly stream: boolean;
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Undefined when no answer byte arrived (the caller left first). */
  readonly firstResponseMs: number | undefined;
  readonly requestId: string;
  /** The path the caller called, without the query string. */
  readonly requestPath: string;
  readonly localCount: boolean;
  readonly endReason: string;
  /** Parameters the provider dropped or changed (Provider `UpstreamRequest.warnings`). */
  readonly warnings: readonly string[];
  readonly createdAt: number;
  /** Facts of the response cache and fallbacks (`response_cache`, `fallback_chain` …), added to `other`. */
  readonly extraOther?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The consume log row (type 2) of one charged request, with new-api's `other` fields so log pages
 * and imported tooling read it the same way. `admin_info` is for administrators only. An answer
 * that did not end normally says why: `stream_status` for streams (new-api's key), `end_reason` for
 * whole answers (a caller who left, a sensitive-word stop).
 */
export function consumeLogEntry(facts: ConsumeFacts): LogEntry {
  const { usage, pricing } = facts;
  // One literal (an absent `frt` is left out by JSON.stringify, in its place): a spread into it made
  // a dictionary-mode object, several times slower to build and to stringify on every request.
  const other: Record<string, unknown> = {
    frt: facts.firstResponseMs,
    // use_time is whole seconds (new-api's column); the dashboard's latency percentiles read this.
    use_time_ms: Math.max(0, Math.round(facts.finishedAt - facts.startedAt)),
    model_ratio: pricing.modelRatio,
    completion_ratio: pricing.completionRatio,
    group_ratio: pricing.groupRatio,
    user_group_ratio: pricing.userGroupRatio,
    model_price: pricing.modelPrice,
    cache_tokens: usage.cachedTokens ?? 0,
    cache_ratio: pricing.cacheRatio,
    request_path: facts.requestPath,
    admin_info: { use_channel: facts.triedChannels, local_count_tokens: facts.localCount },
  };
  if (usage.cacheCreationTokens) Object.assign(other, { cache_creation_tokens: usage.cacheCreationTokens, cache_creation_ratio: pricing.cacheCreationRatio });
  if (usage.cacheCreation1hTokens)
    Object.assign(other, { cache_creation_tokens_1h: usage.cacheCreation1hTokens, cache_creation_ratio_1h: pricing.cacheCreation1hRatio });
  if (usage.webSearchRequests) other.tool_surcharges = { web_search: { calls: usage.webSearchRequests, price_per_thousand: pricing.webSearchPrice } };
  if (usage.audioInputTokens || usage.audioOutputTokens) {
    Object.assign(other, {
      audio: true,
      audio_input: usage.audioInputTokens ?? 0,
      audio_output: usage.audioOutputTokens ?? 0,
      text_input: usage.promptTokens - (usage.audioInputTokens ?? 0),
      text_output: usage.completionTokens - (usage.audioOutputTokens ?? 0),
      audio_ratio: pricing.audioRatio,
      audio_completion_ratio: pricing.audioCompletionRatio,
    });
  }
  if (facts.upstreamModel !== facts.model) Object.assign(other, { is_model_mapped: true, upstream_model_name: facts.upstreamModel });
  if (facts.endReason !== 'done' && facts.endReason !== 'complete') other[facts.stream ? 'stream_status' : 'end_reason'] = facts.endReason;
  if (facts.warnings.length > 0) other.warnings = facts.warnings;
  if (facts.extraOther) Object.assign(other, facts.extraOther);
  return {
    user_id: facts.caller.user.id,
    type: LogType.consume,
    created_at: facts.createdAt,
    content: facts.triedChannels.length > 1 ? `retry: ${facts.triedChannels.join('->')}` : '',
    username: facts.caller.user.username,
    token_name: facts.caller.tokenName,
    token_id: facts.caller.token?.id ?? 0,
    model_name: facts.model,
    quota: facts.quota,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    use_time: Math.max(0, Math.round((facts.finishedAt - facts.startedAt) / 1000)),
    is_stream: facts.stream ? 1 : 0,
    channel_id: facts.channelId,
    group: facts.caller.usingGroup,
    request_id: facts.requestId,
    other: JSON.stringify(other),
  };
}
