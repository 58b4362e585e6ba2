import type { OpenAIFinishReason, OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';
import type { TencentUsage } from './tencent-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/** Hunyuan usage → the relay's usage, exactly as Tencent reports it. */
export function normalizeTencentUsage(usage: TencentUsage): NormalizedUsage {
  return { promptTokens: count(usage.PromptTokens), completionTokens: count(usage.CompletionTokens) };
}

export function toOpenAIUsage(usage: NormalizedUsage): OpenAIUsage {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}

/**
 * Hunyuan's finish reasons → OpenAI's; empty (a frame mid-stream) is no finish. `sensitive` is
 * moderation stopping the output, which OpenAI calls a content filter.
 */
export function mapFinishReason(reason: string | null | undefined): OpenAIFinishReason | null {
  switch (reason) {
    case undefined:
    case null:
    case '':
      return null;
    case 'sensitive':
      return 'content_filter';
    case 'tool_calls':
      return 'tool_calls';
    case 'length':
      return 'length';
    default:
      return 'stop';
  }
}
