import { z } from 'zod';

/**
 * The iFlytek Spark WebSocket chat API, as far as the gateway writes or reads it: the one request
 * message sent after the handshake, and the answer frames (each a JSON text message) that follow.
 * Schemas are tolerant: only the fields read, everything nullable.
 * @see https://www.xfyun.cn/doc/spark/Web.html
 */

export interface SparkMessage {
  role: string;
  content: string;
}

export interface SparkFunction {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export interface SparkRequestBody {
  header: { app_id: string; uid?: string };
  parameter: { chat: { domain: string; temperature?: number; max_tokens?: number; top_k?: number } };
  payload: { message: { text: SparkMessage[] }; functions?: { text: SparkFunction[] } };
}

const count = z.number().nullish();

export const sparkUsageSchema = z.looseObject({
  question_tokens: count,
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
});
export type SparkUsage = z.infer<typeof sparkUsageSchema>;

export const sparkTextItemSchema = z.looseObject({
  content: z.string().nullish(),
  role: z.string().nullish(),
  index: z.number().nullish(),
  content_type: z.string().nullish(),
  function_call: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** One answer frame; a non-zero `header.code` is an error, `status` 2 is the last frame. */
export const sparkFrameSchema = z.looseObject({
  header: z
    .looseObject({
      code: z.number().nullish(),
      message: z.string().nullish(),
      sid: z.string().nullish(),
      status: z.number().nullish(),
    })
    .nullish(),
  payload: z
    .looseObject({
      choices: z.looseObject({ status: z.number().nullish(), seq: z.number().nullish(), text: z.array(sparkTextItemSchema).nullish() }).nullish(),
      usage: z.looseObject({ text: sparkUsageSchema.nullish() }).nullish(),
    })
    .nullish(),
});
export type SparkFrame = z.infer<typeof sparkFrameSchema>;

/** The status of the frame that ends an answer (header and choices both say it). */
export const lastFrameStatus = 2;

export function isLastFrame(frame: SparkFrame): boolean {
  return frame.header?.status === lastFrameStatus || frame.payload?.choices?.status === lastFrameStatus;
}
