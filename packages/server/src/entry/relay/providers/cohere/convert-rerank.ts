import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { cohereRerankResponseSchema } from './cohere-api.ts';
import { normalizeCohereUsage, toOpenAIUsage } from './convert-usage.ts';

/**
 * The caller's rerank request (Jina's shape, which the relay serves for every vendor) → Cohere's v1
 * rerank request. The two agree on `query`, `documents` (strings or `{text}` objects) and `top_n`;
 * documents are returned unless the caller says otherwise, as Jina does by default.
 * @see https://docs.cohere.com/v1/reference/rerank
 */
export function convertRerankRequest(body: Record<string, unknown>, upstreamModel: string): Record<string, unknown> {
  const converted: Record<string, unknown> = {
    model: upstreamModel,
    query: body.query,
    documents: body.documents,
    return_documents: body.return_documents !== false,
  };
  if (typeof body.top_n === 'number' && body.top_n > 0) converted.top_n = body.top_n;
  return converted;
}

/**
 * Cohere's rerank answer → the rerank answer the relay gives for every vendor (Jina's):
 * `{model, results: [{index, relevance_score, document}], usage}`. Cohere bills search units, not
 * tokens: without token counts the usage is left to the relay's local count of the query and
 * documents, as new-api estimates it.
 */
export function convertRerankResponse(body: unknown, context: ConversionContext): { body: unknown; usage?: NormalizedUsage } {
  const parsed = cohereRerankResponseSchema.safeParse(body);
  const response = parsed.success ? parsed.data : {};
  const usage = normalizeCohereUsage(response.meta);
  const results = (response.results ?? []).map((result) => ({
    index: result.index,
    relevance_score: result.relevance_score,
    ...(result.document === undefined ? {} : { document: result.document }),
  }));
  const answer: Record<string, unknown> = { ...(response.id ? { id: response.id } : {}), model: context.model, results };
  if (usage) answer.usage = toOpenAIUsage(usage);
  return usage ? { body: answer, usage } : { body: answer };
}
