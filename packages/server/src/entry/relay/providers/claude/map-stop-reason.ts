import type { OpenAIFinishReason } from '@switchboard/contracts';

/**
 * Anthropic `stop_reason` → OpenAI `finish_reason`.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function mapStopReason(stopReason: string | null | undefined): OpenAIFinishReason | null {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    case null:
    case undefined:
      return null;
    default:
      return 'stop';
  }
}

/** OpenAI `finish_reason` → Anthropic `stop_reason`, for Anthropic-format callers of other channels. */
export function mapFinishReasonToStopReason(finishReason: string | null | undefined): string {
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
