import type { OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';
import type { ZhipuUsage } from './zhipu-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/** v3 usage is OpenAI's (`prompt_tokens`, `completion_tokens`), taken as Zhipu counts it. */
export function normalizeZhipuUsage(usage: ZhipuUsage): NormalizedUsage {
  return { promptTokens: count(usage.prompt_tokens), completionTokens: count(usage.completion_tokens) };
}

export function toOpenAIUsage(usage: NormalizedUsage): OpenAIUsage {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}
