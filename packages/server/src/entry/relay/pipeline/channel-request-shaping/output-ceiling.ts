/**
 * The most output tokens an upstream body asks for, in any of the dialects' fields (OpenAI chat's
 * `max_tokens` / `max_completion_tokens`, Responses' `max_output_tokens`, Claude's `max_tokens`,
 * Gemini's `generationConfig.maxOutputTokens`); 0 when it names none. The pre-charge hold follows it
 * when a channel's override raises it (relay-pipeline.ts).
 */
const positive = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

export function outputCeilingOf(body: Readonly<Record<string, unknown>>): number {
  const generation = body.generationConfig;
  const gemini = typeof generation === 'object' && generation !== null ? positive((generation as Record<string, unknown>).maxOutputTokens) : 0;
  return Math.max(positive(body.max_tokens), positive(body.max_completion_tokens), positive(body.max_output_tokens), gemini);
}
