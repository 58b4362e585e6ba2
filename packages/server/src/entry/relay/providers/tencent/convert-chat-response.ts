import type { OpenAIAssistantMessage, OpenAIChatCompletion } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { tencentChatAnswerSchema } from './tencent-api.ts';
import { mapFinishReason, normalizeTencentUsage, toOpenAIUsage } from './convert-usage.ts';

/** The object inside `{"Response": …}`, or the body itself when it is not wrapped. */
export function unwrapResponse(body: unknown): unknown {
  if (body !== null && typeof body === 'object' && 'Response' in body) return (body as { Response: unknown }).Response;
  return body;
}

/** A complete ChatCompletions answer → an OpenAI chat completion (text, reasoning, tool calls). */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = tencentChatAnswerSchema.safeParse(unwrapResponse(body));
  const answer = parsed.success ? parsed.data : {};
  const choice = answer.Choices?.[0];
  const source = choice?.Message ?? {};
  const toolCalls = (source.ToolCalls ?? []).map((call) => ({
    id: call.Id ?? '',
    type: 'function' as const,
    function: { name: call.Function?.Name ?? '', arguments: call.Function?.Arguments ?? '' },
  }));
  const message: OpenAIAssistantMessage = { role: 'assistant', content: source.Content || (toolCalls.length > 0 ? null : '') };
  if (source.ReasoningContent) message.reasoning_content = source.ReasoningContent;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const usage = answer.Usage ? normalizeTencentUsage(answer.Usage) : undefined;
  const completion: OpenAIChatCompletion = {
    id: answer.Id ?? `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: [{ index: 0, message, finish_reason: mapFinishReason(choice?.FinishReason) ?? 'stop' }],
  };
  if (usage) completion.usage = toOpenAIUsage(usage);
  return usage ? { body: completion, usage } : { body: completion };
}
