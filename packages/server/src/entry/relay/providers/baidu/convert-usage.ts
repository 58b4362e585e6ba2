import type { OpenAIFinishReason, OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';
import type { BaiduChatResponse, BaiduUsage } from './baidu-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/**
 * Baidu usage → the relay's usage, as Baidu reports it. Older answers omit `completion_tokens`;
 * it is then the total less the prompt, as new-api computes it.
 */
export function normalizeBaiduUsage(usage: BaiduUsage): NormalizedUsage {
  const promptTokens = count(usage.prompt_tokens);
  const completionTokens = typeof usage.completion_tokens === 'number' ? count(usage.completion_tokens) : Math.max(count(usage.total_tokens) - promptTokens, 0);
  return { promptTokens, completionTokens };
}

export function toOpenAIUsage(usage: NormalizedUsage): OpenAIUsage {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}

/**
 * Baidu's finish reasons → OpenAI's. `normal` is how most answers end; an input Baidu refused
 * (`need_clear_history`) answers with its own canned text, surfaced as a content filter stop.
 */
export function mapFinishReason(answer: BaiduChatResponse): OpenAIFinishReason {
  if (answer.need_clear_history) return 'content_filter';
  switch (answer.finish_reason) {
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'function_call':
      return 'tool_calls';
    default:
      return 'stop';
  }
}
