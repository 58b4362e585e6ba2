import type { OpenAIFinishReason } from '@switchboard/contracts';

/**
 * Gemini `finishReason` → OpenAI `finish_reason`. A turn that called functions ends with STOP in
 * Gemini; OpenAI callers expect `tool_calls` there.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapFinishReason(finishReason: string | null | undefined, calledTools: boolean): OpenAIFinishReason | null {
  if (!finishReason) return null;
  switch (finishReason) {
    case 'STOP':
      return calledTools ? 'tool_calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      return calledTools ? 'tool_calls' : 'stop';
  }
}

/** OpenAI `finish_reason` → Gemini `finishReason`, for Gemini-format callers of other channels. */
export function mapToGeminiFinishReason(finishReason: string | null | undefined): string {
  switch (finishReason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'STOP';
  }
}
