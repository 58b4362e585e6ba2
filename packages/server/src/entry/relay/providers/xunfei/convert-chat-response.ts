import type { OpenAIAssistantMessage, OpenAIChatCompletion } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { toOpenAIUsage } from '../claude/convert-usage.ts';
import { normalizeSparkUsage } from './convert-usage.ts';
import { sparkFrameSchema } from './spark-api.ts';

/** Spark names no tool call; the id is made from the session id (`sid`) and the call's position. */
export function sparkToolCallId(sid: string, index: number): string {
  return `call_${sid}_${index}`;
}

/**
 * A whole Spark answer (the frames merged into one, see merge-spark-frames) → an OpenAI chat
 * completion: the text as `content`, a `function_call` as the one tool call, usage as reported.
 */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = sparkFrameSchema.safeParse(body);
  const frame = parsed.success ? parsed.data : {};
  const sid = frame.header?.sid || context.requestId;
  let text = '';
  const toolCalls: NonNullable<OpenAIAssistantMessage['tool_calls']> = [];
  for (const item of frame.payload?.choices?.text ?? []) {
    text += item.content ?? '';
    const call = item.function_call;
    if (call?.name)
      toolCalls.push({ id: sparkToolCallId(sid, toolCalls.length), type: 'function', function: { name: call.name, arguments: call.arguments ?? '{}' } });
  }
  const message: OpenAIAssistantMessage = { role: 'assistant', content: text || (toolCalls.length > 0 ? null : '') };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const reported = frame.payload?.usage?.text;
  const usage = reported ? normalizeSparkUsage(reported) : undefined;
  const completion: OpenAIChatCompletion = {
    id: `chatcmpl-${sid}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: [{ index: 0, message, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
  };
  if (usage) completion.usage = toOpenAIUsage(usage);
  return usage ? { body: completion, usage } : { body: completion };
}
