import type { AnswerFormat } from '../../pipeline/answer-format.ts';

type Json = Record<string, unknown>;

const partsText = (content: unknown): string => {
  const parts = (content as { parts?: unknown } | undefined)?.parts;
  if (!Array.isArray(parts)) return '';
  return parts.map((part) => (typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
};

/**
 * Gemini embedContent / batchEmbedContents (a Gemini-format caller) → an OpenAI embeddings
 * request, answered by any channel and rendered back as `{embedding}` or `{embeddings}`.
 * @see https://ai.google.dev/api/embeddings
 */
export function convertEmbedRequest(body: Json, model: string, batch: boolean): Json | undefined {
  const requests = batch ? body.requests : [body];
  if (!Array.isArray(requests) || requests.length === 0) return undefined;
  const input = requests.map((request) => partsText((request as Json).content));
  const dimensions = (requests[0] as Json).outputDimensionality;
  return { model, input: batch ? input : (input[0] ?? ''), ...(typeof dimensions === 'number' ? { dimensions } : {}) };
}

const vectors = (answer: unknown): { values: unknown }[] => {
  const data = (answer as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data.map((item) => ({ values: (item as { embedding?: unknown }).embedding ?? [] })) : [];
};

const noStream = () => ({ push: () => '', end: () => '' });

export const embedContentAnswerFormat: AnswerFormat = {
  convertAnswer: (answer) => ({ embedding: vectors(answer)[0] ?? { values: [] } }),
  createStreamWriter: noStream,
};
export const batchEmbedAnswerFormat: AnswerFormat = { convertAnswer: (answer) => ({ embeddings: vectors(answer) }), createStreamWriter: noStream };
