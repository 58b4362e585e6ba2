import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { NormalizedUsage } from '../provider.ts';

/**
 * The usage of a realtime session, read from the upstream's `response.done` events (OpenAI Realtime
 * API: `response.usage` with `input_tokens`, `output_tokens` and their text/audio/cached details).
 * Every response of the session adds to it; the session is charged once, for the sum, when it ends.
 */
export class RealtimeUsage {
  private promptTokens = 0;
  private completionTokens = 0;
  private cachedTokens = 0;
  private audioInputTokens = 0;
  private audioOutputTokens = 0;
  /** Responses that reported usage. */
  responses = 0;

  /**
   * Reads one text frame from the upstream. Only `response.done` carries usage: other frames (audio
   * deltas make up most of a session) are recognised by a substring test and never parsed.
   */
  addFrame(text: string): void {
    if (!text.includes('"response.done"')) return;
    const parsed = safeParseJson(text);
    if (!parsed.ok) return;
    const event = parsed.value;
    const response =
      (event as { type?: unknown; response?: { usage?: unknown } }).type === 'response.done'
        ? (event as { response?: { usage?: unknown } }).response
        : undefined;
    const usage = response?.usage as RealtimeUsageBody | undefined;
    if (!usage || typeof usage !== 'object') return;
    this.promptTokens += count(usage.input_tokens);
    this.completionTokens += count(usage.output_tokens);
    this.cachedTokens += count(usage.input_token_details?.cached_tokens);
    this.audioInputTokens += count(usage.input_token_details?.audio_tokens);
    this.audioOutputTokens += count(usage.output_token_details?.audio_tokens);
    this.responses += 1;
  }

  /** The session's usage so far, in the relay's terms (audio and cached tokens are part of the totals). */
  total(): NormalizedUsage {
    return {
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      cachedTokens: this.cachedTokens,
      audioInputTokens: this.audioInputTokens,
      audioOutputTokens: this.audioOutputTokens,
    };
  }
}

interface RealtimeUsageBody {
  input_tokens?: unknown;
  output_tokens?: unknown;
  input_token_details?: { cached_tokens?: unknown; audio_tokens?: unknown };
  output_token_details?: { audio_tokens?: unknown };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
