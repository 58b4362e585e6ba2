import { z } from 'zod';

/**
 * Cohere's v1 Chat and Rerank wire format, as far as the gateway reads it. Minimal, tolerant schemas:
 * only the fields a converter uses are checked.
 * @see https://docs.cohere.com/v1/reference/chat
 * @see https://docs.cohere.com/v1/reference/chat-stream
 * @see https://docs.cohere.com/v1/reference/rerank
 */

const tokenCountsSchema = z.looseObject({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() });

/** `meta` of every answer: `billed_units` is what Cohere charges, `tokens` what the model processed. */
export const cohereMetaSchema = z.looseObject({
  billed_units: tokenCountsSchema.extend({ search_units: z.number().nullish() }).nullish(),
  tokens: tokenCountsSchema.nullish(),
});
export type CohereMeta = z.infer<typeof cohereMetaSchema>;

/** A complete (non-streamed) chat answer; also the `response` of the `stream-end` event. */
export const cohereChatResponseSchema = z.looseObject({
  response_id: z.string().nullish(),
  generation_id: z.string().nullish(),
  text: z.string().nullish(),
  finish_reason: z.string().nullish(),
  meta: cohereMetaSchema.nullish(),
});

/** One line of a chat stream (newline-delimited JSON). */
export const cohereStreamEventSchema = z.looseObject({
  event_type: z.string(),
  is_finished: z.boolean().nullish(),
  generation_id: z.string().nullish(),
  text: z.string().nullish(),
  finish_reason: z.string().nullish(),
  response: cohereChatResponseSchema.nullish(),
});

export const cohereRerankResponseSchema = z.looseObject({
  id: z.string().nullish(),
  results: z.array(z.looseObject({ index: z.number(), relevance_score: z.number(), document: z.unknown().optional() })).nullish(),
  meta: cohereMetaSchema.nullish(),
});

/** Every failed answer: `{"message": "..."}`. */
export const cohereErrorSchema = z.looseObject({ message: z.string().nullish() });

export interface CohereChatTurn {
  role: 'USER' | 'CHATBOT' | 'SYSTEM';
  message: string;
}

export interface CohereChatRequest {
  model: string;
  message: string;
  chat_history?: CohereChatTurn[];
  preamble?: string;
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  p?: number;
  k?: number;
  seed?: number;
  stop_sequences?: string[];
  frequency_penalty?: number;
  presence_penalty?: number;
  response_format?: { type: 'json_object'; schema?: unknown };
}
