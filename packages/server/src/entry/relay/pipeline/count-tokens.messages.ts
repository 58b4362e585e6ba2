import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** Refusals of the count-tokens endpoints (`/v1/messages/count_tokens`, Gemini `:countTokens`). */
export const countTokensMessages = {
  promptTooLong: { zh: '提示词过长，无法计数（最多 {max} 个字符）', en: 'The prompt is too long to count (at most {max} characters)' },
} as const satisfies Record<string, LocalizedMessage>;
