import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { baiduEmbeddingsResponseSchema } from './baidu-api.ts';
import { normalizeBaiduUsage } from './convert-usage.ts';

/**
 * OpenAI embeddings ⇄ Wenxin Workshop embeddings: `input` is always a list of strings on Baidu's
 * side, and the answer's `data` and `usage` already have OpenAI's field names.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/alj562vvu
 */
export function convertEmbeddingsRequest(body: Record<string, unknown> | undefined): { input: string[]; user_id?: string } {
  const input = body?.input;
  const texts = Array.isArray(input) ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))) : [typeof input === 'string' ? input : ''];
  return typeof body?.user === 'string' && body.user ? { input: texts, user_id: body.user } : { input: texts };
}

export function convertEmbeddingsResponse(body: unknown, context: ConversionContext): { body: unknown; usage?: NormalizedUsage } {
  const parsed = baiduEmbeddingsResponseSchema.safeParse(body);
  const answer = parsed.success ? parsed.data : {};
  const usage = answer.usage ? normalizeBaiduUsage(answer.usage) : undefined;
  const promptTokens = usage?.promptTokens ?? 0;
  return {
    body: {
      object: 'list',
      data: (answer.data ?? []).map((item, index) => ({ object: 'embedding', index: item.index ?? index, embedding: item.embedding })),
      model: context.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    ...(usage ? { usage: { promptTokens, completionTokens: 0 } } : {}),
  };
}
