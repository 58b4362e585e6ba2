import type { OpenAIChatCompletion } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { difyChatResponseSchema } from './dify-api.ts';
import { normalizeDifyUsage, toOpenAIUsage } from './convert-usage.ts';

/** An OpenAI completion that also names the Dify conversation, so a caller can continue it. */
export type DifyChatCompletion = OpenAIChatCompletion & { conversation_id?: string };

/** A blocking chat-messages answer → an OpenAI chat completion, usage from `metadata.usage`. */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: DifyChatCompletion; usage?: NormalizedUsage } {
  const parsed = difyChatResponseSchema.safeParse(body);
  const response = parsed.success ? parsed.data : {};
  const usage = normalizeDifyUsage(response.metadata?.usage);
  const completion: DifyChatCompletion = {
    id: `chatcmpl-${response.message_id ?? context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: [{ index: 0, message: { role: 'assistant', content: response.answer ?? '' }, finish_reason: 'stop' }],
  };
  if (response.conversation_id) completion.conversation_id = response.conversation_id;
  if (usage) completion.usage = toOpenAIUsage(usage);
  return usage ? { body: completion, usage } : { body: completion };
}
