import type { OpenAIAssistantMessage, OpenAIChatCompletion } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { cozeCompletedChatSchema } from './coze-api.ts';
import { normalizeCozeUsage, toOpenAIUsage } from './convert-usage.ts';

/**
 * A finished non-streamed Coze chat (the chat and its messages, as the Coze transport gathers them)
 * → an OpenAI chat completion: the `answer` messages are the content (verbose and follow-up
 * suggestions are not), their reasoning the `reasoning_content`, the chat's usage the usage.
 */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = cozeCompletedChatSchema.safeParse(body);
  const chat = parsed.success ? parsed.data.chat : {};
  const answers = parsed.success ? parsed.data.messages.filter((message) => message.role === 'assistant' && message.type === 'answer') : [];
  const message: OpenAIAssistantMessage = { role: 'assistant', content: answers.map((answer) => answer.content ?? '').join('') };
  const reasoning = answers.map((answer) => answer.reasoning_content ?? '').join('');
  if (reasoning) message.reasoning_content = reasoning;
  const usage = normalizeCozeUsage(chat.usage);
  const completion: OpenAIChatCompletion = {
    id: `chatcmpl-${chat.id ?? context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: [{ index: 0, message, finish_reason: 'stop' }],
  };
  if (usage) completion.usage = toOpenAIUsage(usage);
  return usage ? { body: completion, usage } : { body: completion };
}
