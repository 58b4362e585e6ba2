import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { minimaxEmbeddingsResponseSchema, type MinimaxEmbeddingsRequestBody } from './minimax-api.ts';

/**
 * OpenAI embeddings ⇄ MiniMax `/v1/embeddings`. OpenAI has no notion of MiniMax's `type`: texts are
 * embedded for storage (`db`) unless the caller sends `"type": "query"` beside the OpenAI fields.
 * @see https://platform.minimaxi.com/document/Embeddings
 */
export function convertEmbeddingsRequest(body: Record<string, unknown> | undefined, model: string): { body: MinimaxEmbeddingsRequestBody; warnings: string[] } {
  const warnings: string[] = [];
  const raw = body?.input;
  const items: unknown[] = Array.isArray(raw) ? raw : [raw];
  const texts = items.filter((item): item is string => typeof item === 'string');
  if (texts.length !== items.length) warnings.push('non-text inputs dropped: MiniMax embeds strings only');
  for (const field of ['encoding_format', 'dimensions'] as const) {
    if (body?.[field] !== undefined && body[field] !== null) warnings.push(`${field} ignored: MiniMax has no such parameter`);
  }
  return { body: { model, texts, type: body?.type === 'query' ? 'query' : 'db' }, warnings };
}

/** `{vectors, total_tokens}` → OpenAI's embedding list; the tokens are all prompt tokens. */
export function convertEmbeddingsResponse(body: unknown, context: ConversionContext): { body: unknown; usage?: NormalizedUsage } {
  const parsed = minimaxEmbeddingsResponseSchema.safeParse(body);
  const vectors = parsed.success ? (parsed.data.vectors ?? []) : [];
  const tokens = parsed.success && typeof parsed.data.total_tokens === 'number' ? Math.max(0, Math.floor(parsed.data.total_tokens)) : undefined;
  const answer = {
    object: 'list',
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    model: context.model,
    usage: { prompt_tokens: tokens ?? 0, total_tokens: tokens ?? 0 },
  };
  return tokens === undefined ? { body: answer } : { body: answer, usage: { promptTokens: tokens, completionTokens: 0 } };
}
