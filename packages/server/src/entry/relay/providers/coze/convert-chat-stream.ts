import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { cozeChatSchema, cozeEnvelopeSchema, cozeMessageSchema } from './coze-api.ts';
import { normalizeCozeUsage, toOpenAIUsage } from './convert-usage.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

/**
 * Coze v3 stream events → OpenAI chunks. `conversation.message.delta` of an `answer` carries text
 * (and, for reasoning models, `reasoning_content`); `conversation.chat.completed` the usage of the
 * whole chat; `conversation.chat.failed` and `error` end it with Coze's message. The completed
 * messages repeat what the deltas said, and `done` only closes the stream.
 * @see https://www.coze.com/open/docs/developer_guides/chat_v3 (streaming events)
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  let usage: NormalizedUsage | undefined;
  let started = false;
  let pendingText = '';

  const chunk = (delta: OpenAIChunkDelta, finish: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finish);
  const withRole = (delta: OpenAIChunkDelta): OpenAIChunkDelta => {
    if (started) return delta;
    started = true;
    return { role: 'assistant', ...delta };
  };
  const failure = (code: number | null | undefined, message: string | null | undefined) =>
    openAIErrorBody({ message: message || 'Coze chat failed', type: 'upstream_error', code: code === null || code === undefined ? null : String(code) });

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      switch (event.event) {
        case 'conversation.chat.created': {
          const chat = cozeChatSchema.safeParse(json.value);
          if (chat.success && chat.data.id) id = `chatcmpl-${chat.data.id}`;
          return [];
        }
        case 'conversation.message.delta': {
          const message = cozeMessageSchema.safeParse(json.value);
          if (!message.success || message.data.type !== 'answer') return [];
          const delta: OpenAIChunkDelta = {};
          if (message.data.reasoning_content) delta.reasoning_content = message.data.reasoning_content;
          if (message.data.content) delta.content = message.data.content;
          if (delta.content === undefined && delta.reasoning_content === undefined) return [];
          pendingText += (delta.reasoning_content ?? '') + (delta.content ?? '');
          return [chunk(withRole(delta))];
        }
        case 'conversation.chat.completed': {
          const chat = cozeChatSchema.safeParse(json.value);
          usage = (chat.success ? normalizeCozeUsage(chat.data.usage) : undefined) ?? usage;
          const finishing = chunk(withRole({}), 'stop');
          if (usage) finishing.usage = toOpenAIUsage(usage);
          return [finishing];
        }
        case 'conversation.chat.failed': {
          const chat = cozeChatSchema.safeParse(json.value);
          return [failure(chat.success ? chat.data.last_error?.code : undefined, chat.success ? chat.data.last_error?.msg : undefined)];
        }
        case 'error': {
          const error = cozeEnvelopeSchema.safeParse(json.value);
          return [failure(error.success ? error.data.code : undefined, error.success ? (error.data.msg ?? error.data.message) : undefined)];
        }
        default:
          return [];
      }
    },
    usage: () => usage,
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
