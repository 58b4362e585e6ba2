import { z } from 'zod';
import type { JsonResult } from '../../../../core/platform/safe-json.ts';
import { countPromptTokens } from '../../pipeline/count-prompt-tokens.ts';
import { RelayError } from '../../../../core/http/relay-error.ts';
import { geminiContentSchema, geminiRequestSchema } from '../../providers/gemini/gemini-api.ts';
import { convertGenerateRequest } from './convert-generate-request.ts';
import { geminiEntryMessages } from './gemini-entry.messages.ts';

/** `contents` alone, or a whole `generateContentRequest` (system instruction, tools): never both. */
const countTokensRequestSchema = z
  .looseObject({ contents: z.array(geminiContentSchema).nullish(), generateContentRequest: geminiRequestSchema.nullish() })
  .refine((body) => (body.contents ? 1 : 0) + (body.generateContentRequest ? 1 : 0) === 1, 'send either contents or generateContentRequest, not both');

/**
 * models/{model}:countTokens → `{"totalTokens": N}`, counted locally over the request converted as
 * generateContent converts it, the way the relay counts prompts (see countPromptTokens): no
 * upstream is called, nothing is billed. Inline media is not counted, only text and tools.
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
export async function countGeminiTokens(json: JsonResult, model: string): Promise<{ totalTokens: number }> {
  const parsed = json.ok ? countTokensRequestSchema.safeParse(json.value) : undefined;
  if (!parsed?.success) {
    const detail = json.ok ? (parsed?.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ') ?? '') : json.error;
    throw new RelayError(400, 'invalid_request', geminiEntryMessages.invalidBody, { params: { detail } });
  }
  const request = parsed.data.generateContentRequest ?? { contents: parsed.data.contents ?? [] };
  return { totalTokens: await countPromptTokens(convertGenerateRequest(request, model, false)) };
}
