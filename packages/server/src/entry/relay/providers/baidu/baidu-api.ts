import { z } from 'zod';

/**
 * Baidu Wenxin Workshop (ERNIE v1, `wenxinworkshop`) wire format, as far as the gateway reads it.
 * Every answer is HTTP 200, errors included: an error is a body with `error_code` and `error_msg`.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/clntwmv7t (ERNIE 4.0 chat)
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/alj562vvu (embeddings)
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/tlmyncueh (error codes)
 */

export const baiduUsageSchema = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
});
export type BaiduUsage = z.infer<typeof baiduUsageSchema>;

/** A chat answer; a stream frame is the same object with `sentence_id` and `is_end`. */
export const baiduChatResponseSchema = z.looseObject({
  id: z.string().nullish(),
  created: z.number().nullish(),
  result: z.string().nullish(),
  is_end: z.boolean().nullish(),
  /** `normal` (also mid-stream), `stop`, `length`, `content_filter`, `function_call`. */
  finish_reason: z.string().nullish(),
  /** True when the user's input was judged unsafe: `result` is then Baidu's refusal. */
  need_clear_history: z.boolean().nullish(),
  usage: baiduUsageSchema.nullish(),
  error_code: z.number().nullish(),
  error_msg: z.string().nullish(),
});
export type BaiduChatResponse = z.infer<typeof baiduChatResponseSchema>;

export const baiduEmbeddingsResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ embedding: z.array(z.number()), index: z.number().nullish() })).nullish(),
  usage: baiduUsageSchema.nullish(),
});

/**
 * A failed call (`error_code`/`error_msg`), or a refused token exchange (`error`/`error_description`,
 * the OAuth shape of `/oauth/2.0/token`).
 */
export const baiduErrorSchema = z.looseObject({
  error_code: z.union([z.number(), z.string()]).nullish(),
  error_msg: z.string().nullish(),
  error: z.string().nullish(),
  error_description: z.string().nullish(),
});
export type BaiduError = z.infer<typeof baiduErrorSchema>;

/** The answer of `/oauth/2.0/token?grant_type=client_credentials`. */
export const baiduTokenResponseSchema = z.looseObject({
  access_token: z.string().nullish(),
  expires_in: z.number().nullish(),
  error: z.string().nullish(),
  error_description: z.string().nullish(),
});
