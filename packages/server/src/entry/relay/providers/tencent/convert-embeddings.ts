import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { unwrapResponse } from './convert-chat-response.ts';
import { tencentEmbeddingsAnswerSchema } from './tencent-api.ts';

/**
 * OpenAI embeddings ⇄ Hunyuan GetEmbedding: every input goes in `InputList` (at most 50), and the
 * answer's `Data` comes back as OpenAI's list with the prompt tokens Tencent counted.
 * @see https://github.com/TencentCloud/tencentcloud-sdk-nodejs/blob/master/src/services/hunyuan/v20230901/hunyuan_models.ts (GetEmbeddingRequest)
 */
export function convertEmbeddingsRequest(body: Record<string, unknown> | undefined): { InputList: string[] } {
  const input = body?.input;
  const texts = Array.isArray(input) ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))) : [typeof input === 'string' ? input : ''];
  return { InputList: texts };
}

export function convertEmbeddingsResponse(body: unknown, context: ConversionContext): { body: unknown; usage?: NormalizedUsage } {
  const parsed = tencentEmbeddingsAnswerSchema.safeParse(unwrapResponse(body));
  const answer = parsed.success ? parsed.data : {};
  const promptTokens = Math.max(0, Math.floor(answer.Usage?.PromptTokens ?? 0));
  return {
    body: {
      object: 'list',
      data: (answer.Data ?? []).map((item, index) => ({ object: 'embedding', index: item.Index ?? index, embedding: item.Embedding ?? [] })),
      model: context.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    ...(answer.Usage ? { usage: { promptTokens, completionTokens: 0 } } : {}),
  };
}
