import type { OpenAIAssistantMessage, OpenAIChatCompletion } from '@switchboard/contracts';
import { UnconvertibleAnswer, type ConversionContext, type NormalizedUsage } from '../../provider.ts';
import { claudeResponseSchema, claudeUsageSchema } from './claude-api.ts';
import { urlCitations } from './claude-citations.ts';
import { billedClaudeUsage } from './claude-native-answer.ts';
import { toOpenAIUsage } from './convert-usage.ts';
import { mapStopReason } from './map-stop-reason.ts';

/**
 * A complete Anthropic Messages answer → an OpenAI chat completion: text blocks joined into
 * `content` (their web citations as `url_citation` annotations), thinking into `reasoning_content`
 * (the field DeepSeek-style clients read), tool_use blocks into `tool_calls` with their input
 * serialised as the `arguments` string. The server tools' blocks (`server_tool_use`, the
 * `*_tool_result` blocks, MCP) ran at Anthropic: they are never handed to the caller as tool calls
 * to run, and OpenAI's chat format has no place for them, so they are dropped.
 */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = claudeResponseSchema.safeParse(body);
  if (!parsed.success) {
    // Billed from the upstream's usage whatever happened to the content; never an empty success.
    const usage = claudeUsageSchema.safeParse((body as { usage?: unknown } | null)?.usage);
    throw new UnconvertibleAnswer(
      `the Claude answer cannot be converted: ${parsed.error.issues[0]?.message ?? 'invalid body'}`,
      usage.success && usage.data ? billedClaudeUsage(usage.data) : undefined,
    );
  }
  const response = parsed.data;
  let text = '';
  let reasoning = '';
  const toolCalls: NonNullable<OpenAIAssistantMessage['tool_calls']> = [];
  const thinkingBlocks: NonNullable<OpenAIAssistantMessage['thinking_blocks']> = [];
  const annotations: NonNullable<OpenAIAssistantMessage['annotations']> = [];
  for (const block of response.content ?? []) {
    if (block.type === 'text') {
      const start = text.length;
      text += block.text ?? '';
      annotations.push(...urlCitations(block.citations, start, text.length));
    } else if (block.type === 'thinking') {
      reasoning += block.thinking ?? '';
      thinkingBlocks.push({ type: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' });
    } else if (block.type === 'redacted_thinking') thinkingBlocks.push({ type: 'redacted_thinking', data: block.data ?? '' });
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  const message: OpenAIAssistantMessage = { role: 'assistant', content: text || (toolCalls.length > 0 ? null : '') };
  if (reasoning) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (annotations.length > 0) message.annotations = annotations;
  if (thinkingBlocks.length > 0) message.thinking_blocks = thinkingBlocks;
  const usage = response.usage ? billedClaudeUsage(response.usage) : undefined;
  const completion: OpenAIChatCompletion = {
    id: response.id ?? `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: [{ index: 0, message, finish_reason: mapStopReason(response.stop_reason) ?? 'stop' }],
  };
  if (usage) completion.usage = toOpenAIUsage(usage);
  return usage ? { body: completion, usage } : { body: completion };
}
