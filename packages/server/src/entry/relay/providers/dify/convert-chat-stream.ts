import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { difyStreamEventSchema } from './dify-api.ts';
import { normalizeDifyUsage, toOpenAIUsage } from './convert-usage.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

/**
 * Dify `streaming` events → OpenAI chunks, one event at a time.
 *
 * `message` (chat apps) and `agent_message` (agent apps) carry answer text; `agent_thought` reports an
 * agent's step, of which only the tool it calls is new (its thought text also came as agent_message),
 * so that goes out as reasoning; `message_replace` is Dify's moderation replacing the answer, surfaced
 * as the replacement text and a `content_filter` finish; `message_end` carries the usage of every model
 * call of the app; `error` ends the answer with the vendor's message. Workflow, node, TTS and ping
 * events carry nothing a chat completion shows.
 * @see https://docs.dify.ai/en/openapi-api-access-readme (chat-messages, streaming mode)
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  let usage: NormalizedUsage | undefined;
  let started = false;
  let finishReason: OpenAIFinishReason = 'stop';
  let pendingText = '';
  const reportedTools = new Set<string>();

  const chunk = (delta: OpenAIChunkDelta, finish: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finish);
  /** The first chunk says who speaks, as OpenAI's first chunk does. */
  const withRole = (delta: OpenAIChunkDelta): OpenAIChunkDelta => {
    if (started) return delta;
    started = true;
    return { role: 'assistant', ...delta };
  };

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      const parsed = difyStreamEventSchema.safeParse(json.value);
      if (!parsed.success) return [];
      const data = parsed.data;
      if (!started && data.message_id) id = `chatcmpl-${data.message_id}`;
      switch (data.event) {
        case 'message':
        case 'agent_message':
          if (!data.answer) return [];
          pendingText += data.answer;
          return [chunk(withRole({ content: data.answer }))];
        case 'agent_thought': {
          const key = `${data.id ?? ''}\n${data.tool ?? ''}`;
          if (!data.tool || reportedTools.has(key)) return [];
          reportedTools.add(key);
          const note = `Tool ${data.tool}${data.tool_input ? `: ${data.tool_input}` : ''}\n`;
          pendingText += note;
          return [chunk(withRole({ reasoning_content: note }))];
        }
        case 'message_replace':
          finishReason = 'content_filter';
          if (!data.answer) return [];
          pendingText += data.answer;
          return [chunk(withRole({ content: data.answer }))];
        case 'message_end': {
          usage = normalizeDifyUsage(data.metadata?.usage) ?? usage;
          const finishing = chunk(withRole({}), finishReason);
          if (usage) finishing.usage = toOpenAIUsage(usage);
          return [finishing];
        }
        case 'error':
          return [openAIErrorBody({ message: data.message ?? 'Dify stream error', type: data.code ?? 'upstream_error', code: data.code ?? null })];
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
