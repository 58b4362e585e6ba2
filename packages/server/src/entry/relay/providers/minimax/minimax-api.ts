import { z } from 'zod';

/**
 * MiniMax's API, as far as the gateway reads it. Chat (`/v1/text/chatcompletion_v2`) speaks OpenAI's
 * format plus a `base_resp` status; embeddings (`/v1/embeddings`) have MiniMax's own shape. Every
 * answer carries `base_resp`, and failures come with HTTP 200 and a non-zero `status_code`.
 * @see https://platform.minimaxi.com/document/ChatCompletion%20v2
 * @see https://platform.minimax.io/docs/api-reference/errorcode
 */

export const minimaxBaseRespSchema = z.looseObject({
  status_code: z.number().nullish(),
  status_msg: z.string().nullish(),
});

/** Any MiniMax answer, read only for its status. */
export const minimaxStatusSchema = z.looseObject({ base_resp: minimaxBaseRespSchema.nullish() });

/** `POST /v1/embeddings` answer: one vector per text, and the tokens of all of them. */
export const minimaxEmbeddingsResponseSchema = z.looseObject({
  vectors: z.array(z.array(z.number())).nullish(),
  total_tokens: z.number().nullish(),
  base_resp: minimaxBaseRespSchema.nullish(),
});

/** The body `POST /v1/embeddings` takes: `type` is `db` for stored texts, `query` for search queries. */
export interface MinimaxEmbeddingsRequestBody {
  model: string;
  texts: string[];
  type: 'db' | 'query';
}
