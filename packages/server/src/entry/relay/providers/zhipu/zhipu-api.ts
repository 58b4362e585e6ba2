import { z } from 'zod';

/**
 * Zhipu's ChatGLM API v3 (`/api/paas/v3/model-api/{model}/invoke|sse-invoke`), as far as the gateway
 * reads or writes it. Schemas are minimal and tolerant: only what a converter uses is checked.
 * @see https://open.bigmodel.cn/dev/api#chatglm_turbo (the v3 reference, since replaced by v4)
 */

export const zhipuUsageSchema = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
});
export type ZhipuUsage = z.infer<typeof zhipuUsageSchema>;

/** Every v3 answer, failed or not: `{code, msg, success, data}`. */
export const zhipuResponseSchema = z.looseObject({
  code: z.number().nullish(),
  msg: z.string().nullish(),
  success: z.boolean().nullish(),
  data: z
    .looseObject({
      request_id: z.string().nullish(),
      task_id: z.string().nullish(),
      task_status: z.string().nullish(),
      choices: z.array(z.looseObject({ role: z.string().nullish(), content: z.string().nullish() })).nullish(),
      usage: zhipuUsageSchema.nullish(),
    })
    .nullish(),
});
export type ZhipuResponse = z.infer<typeof zhipuResponseSchema>;

/** The `meta:` line of the `finish` event: the task and its usage. */
export const zhipuStreamMetaSchema = z.looseObject({
  request_id: z.string().nullish(),
  task_id: z.string().nullish(),
  task_status: z.string().nullish(),
  usage: zhipuUsageSchema.nullish(),
});

/**
 * One sse-invoke event as the Zhipu transport re-frames it: the raw text of its `data:` lines, its
 * `id:` and the raw `meta:` line, as JSON in one standard `data:` field (see reframe-zhipu-stream.ts).
 */
export const zhipuStreamEventSchema = z.looseObject({
  id: z.string().nullish(),
  data: z.string().nullish(),
  meta: z.string().nullish(),
});
export type ZhipuStreamEvent = z.infer<typeof zhipuStreamEventSchema>;

/** The body v3 sends to `invoke` and `sse-invoke`. */
export interface ZhipuRequestBody {
  prompt: { role: 'user' | 'assistant'; content: string }[];
  temperature?: number;
  top_p?: number;
  /** sse-invoke only: each `add` event carries the new text rather than everything so far. */
  incremental?: boolean;
}
