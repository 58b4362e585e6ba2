import type { OpenAIChatCompletion } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { baiduChatResponseSchema } from './baidu-api.ts';
import { mapFinishReason, normalizeBaiduUsage, toOpenAIUsage } from './convert-usage.ts';

/** A complete Wenxin Workshop chat answer → an OpenAI chat completion. */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = baiduChatResponseSchema.safeParse(body);
  const answer = parsed.success ? parsed.data : {};
  const usage = answer.usage ? normalizeBaiduUsage(answer.usage) : undefined;
  const completion: OpenAIChatCompletion = {
    id: answer.id ?? `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer.result ?? '' }, finish_reason: mapFinishReason(answer) }],
  };
  if (usage) completion.usage = toOpenAIUsage(usage);
  return usage ? { body: completion, usage } : { body: completion };
}
