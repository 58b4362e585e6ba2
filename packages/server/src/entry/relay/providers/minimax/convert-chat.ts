import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { extractOpenAIStreamText, extractOpenAIUsage } from '../openai-compatible/openai-usage.ts';
import { minimaxStatusSchema } from './minimax-api.ts';
import { parseMinimaxError } from './parse-minimax-error.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);

/** Usage only when it counts something: MiniMax's chunks carry `"usage":{"total_tokens":0}` until the last. */
function reportedUsage(value: unknown): NormalizedUsage | undefined {
  const usage = extractOpenAIUsage(value);
  return usage && (usage.promptTokens > 0 || usage.completionTokens > 0) ? usage : undefined;
}

/** A complete chatcompletion_v2 answer is OpenAI's already: it goes out as it came, its usage read. */
export function convertChatResponse(body: unknown, _context: ConversionContext): { body: unknown; usage?: NormalizedUsage } {
  const usage = reportedUsage(body);
  return usage ? { body, usage } : { body };
}

/**
 * chatcompletion_v2 chunks are OpenAI's, but the stream's last chunk repeats the whole answer as a
 * `message` (with `"object":"chat.completion"`) instead of a `delta`: OpenAI clients reading
 * `choices[0].delta` would fail on it, and the text is already delivered. That chunk becomes a
 * finishing chunk with an empty delta and the usage; a chunk with a failed `base_resp` becomes the
 * error it reports. Every other chunk goes out unchanged.
 * @see https://platform.minimaxi.com/document/ChatCompletion%20v2
 */
export function createChatStreamConverter(_context: ConversionContext): StreamConverter {
  let usage: NormalizedUsage | undefined;
  let pendingText = '';
  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      const chunk = json.ok ? asObject(json.value) : undefined;
      if (!chunk) return [];
      const status = minimaxStatusSchema.safeParse(chunk);
      const code = status.success ? status.data.base_resp?.status_code : undefined;
      if (typeof code === 'number' && code !== 0) {
        const error = parseMinimaxError(200, chunk);
        return [openAIErrorBody({ message: error.message, type: error.type, code: error.code })];
      }
      const { usage: _usage, ...rest } = chunk;
      const out: Json = { ...rest, object: 'chat.completion.chunk' };
      if (Array.isArray(chunk.choices)) {
        out.choices = chunk.choices.map((choice) => {
          const entry = asObject(choice);
          if (!entry || entry.delta !== undefined || entry.message === undefined) return choice;
          const { message: _message, ...finishing } = entry;
          return { ...finishing, delta: {} };
        });
      }
      pendingText += extractOpenAIStreamText(out);
      const reported = reportedUsage(chunk);
      if (reported) {
        usage = reported;
        out.usage = chunk.usage;
      }
      return [out];
    },
    usage(): NormalizedUsage | undefined {
      return usage;
    },
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
