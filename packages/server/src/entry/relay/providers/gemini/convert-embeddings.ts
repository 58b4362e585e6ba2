import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { geminiEmbeddingsResponseSchema } from './gemini-api.ts';

/**
 * OpenAI embeddings ⇄ Gemini batchEmbedContents. One request carries every input; Gemini reports
 * no token usage for embeddings, so the relay counts the input locally.
 * @see https://ai.google.dev/api/embeddings#method:-models.batchembedcontents
 */
export function convertEmbeddingsRequest(body: Record<string, unknown> | undefined, model: string): { requests: Record<string, unknown>[] } {
  const input = body?.input;
  const texts = Array.isArray(input) ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))) : [typeof input === 'string' ? input : ''];
  const dimensions = typeof body?.dimensions === 'number' ? body.dimensions : undefined;
  return {
    requests: texts.map((text) => {
      const request: Record<string, unknown> = { model: `models/${model}`, content: { parts: [{ text }] } };
      if (dimensions !== undefined) request.outputDimensionality = dimensions;
      return request;
    }),
  };
}

export function convertEmbeddingsResponse(body: unknown, context: ConversionContext): { body: unknown; usage?: NormalizedUsage } {
  const parsed = geminiEmbeddingsResponseSchema.safeParse(body);
  const vectors = parsed.success ? (parsed.data.embeddings ?? (parsed.data.embedding ? [parsed.data.embedding] : [])) : [];
  return {
    body: {
      object: 'list',
      data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: vector.values })),
      model: context.model,
      usage: { prompt_tokens: 0, total_tokens: 0 },
    },
  };
}
