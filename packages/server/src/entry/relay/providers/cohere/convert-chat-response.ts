import type { OpenAIChatCompletion } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { cohereChatResponseSchema } from './cohere-api.ts';
import { mapFinishReason, normalizeCohereUsage, toOpenAIUsage } from './convert-usage.ts';

/** A complete Cohere v1 chat answer → an OpenAI chat completion, usage from `meta.billed_units`. */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = cohereChatResponseSchema.safeParse(body);
  const response = parsed.success ? parsed.data : {};
  const usage = normalizeCohereUsage(response.meta);
  const completion: OpenAIChatCompletion = {
    id: response.response_id ? `chatcmpl-${response.response_id}` : `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: [{ index: 0, message: { role: 'assistant', content: response.text ?? '' }, finish_reason: mapFinishReason(response.finish_reason) }],
  };
  if (usage) completion.usage = toOpenAIUsage(usage);
  return usage ? { body: completion, usage } : { body: completion };
}
