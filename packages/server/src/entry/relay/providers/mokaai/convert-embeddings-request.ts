/**
 * OpenAI embeddings request → MokaAI's: the same `{model, input}` body with `input` always a list of
 * strings, as new-api sends it (a single string is wrapped; token-id inputs, which MokaAI cannot
 * read, are dropped with a warning). Encoding format and dimensions are OpenAI's alone.
 */
export function convertEmbeddingsRequest(
  body: Record<string, unknown> | undefined,
  model: string,
): { body: { model: string; input: string[] }; warnings: string[] } {
  const warnings: string[] = [];
  const raw = body?.input;
  const items: unknown[] = Array.isArray(raw) ? raw : [raw];
  const input = items.filter((item): item is string => typeof item === 'string');
  if (input.length !== items.length) warnings.push('non-text inputs dropped: MokaAI embeds strings only');
  for (const field of ['encoding_format', 'dimensions'] as const) {
    if (body?.[field] !== undefined && body[field] !== null) warnings.push(`${field} ignored: MokaAI has no such parameter`);
  }
  return { body: { model, input }, warnings };
}
