import { z } from 'zod';

/**
 * Tencent Hunyuan API 3.0 (`hunyuan.tencentcloudapi.com`, version 2023-09-01) wire format, as far as
 * the gateway reads it. A complete answer is wrapped in `Response`; a stream frame is the bare
 * object. Every error is HTTP 200 with `Response.Error`.
 * @see https://cloud.tencent.com/document/product/1729/97732 (Hunyuan API overview)
 * @see https://github.com/TencentCloud/tencentcloud-sdk-nodejs/blob/master/src/services/hunyuan/v20230901/hunyuan_models.ts (request and answer structures)
 * @see https://www.tencentcloud.com/document/product/1284/75543 (error codes)
 */

export const tencentUsageSchema = z.looseObject({
  PromptTokens: z.number().nullish(),
  CompletionTokens: z.number().nullish(),
  TotalTokens: z.number().nullish(),
});
export type TencentUsage = z.infer<typeof tencentUsageSchema>;

export const tencentToolCallSchema = z.looseObject({
  Id: z.string().nullish(),
  Type: z.string().nullish(),
  Index: z.number().nullish(),
  Function: z.looseObject({ Name: z.string().nullish(), Arguments: z.string().nullish() }).nullish(),
});
export type TencentToolCall = z.infer<typeof tencentToolCallSchema>;

const tencentMessageSchema = z.looseObject({
  Role: z.string().nullish(),
  Content: z.string().nullish(),
  ReasoningContent: z.string().nullish(),
  ToolCalls: z.array(tencentToolCallSchema).nullish(),
});

export const tencentChoiceSchema = z.looseObject({
  /** `stop`, `sensitive` (moderation stopped the output), `tool_calls`, `length`; empty mid-stream. */
  FinishReason: z.string().nullish(),
  Index: z.number().nullish(),
  Message: tencentMessageSchema.nullish(),
  Delta: tencentMessageSchema.nullish(),
});

/** A ChatCompletions answer (inside `Response`) or one stream frame. */
export const tencentChatAnswerSchema = z.looseObject({
  Id: z.string().nullish(),
  Created: z.number().nullish(),
  Choices: z.array(tencentChoiceSchema).nullish(),
  Usage: tencentUsageSchema.nullish(),
  /** A failure inside a stream (4000 internal error, 4001 model timeout). */
  ErrorMsg: z.looseObject({ Msg: z.string().nullish(), Code: z.number().nullish() }).nullish(),
});
export type TencentChatAnswer = z.infer<typeof tencentChatAnswerSchema>;

export const tencentErrorSchema = z.looseObject({ Code: z.string().nullish(), Message: z.string().nullish() });

/** `{"Response": {...}}`, the envelope of every non-streamed answer, errors included. */
export const tencentEnvelopeSchema = z.looseObject({
  Response: z.looseObject({ Error: tencentErrorSchema.nullish(), RequestId: z.string().nullish() }).nullish(),
});

export const tencentEmbeddingsAnswerSchema = z.looseObject({
  Data: z.array(z.looseObject({ Embedding: z.array(z.number()).nullish(), Index: z.number().nullish() })).nullish(),
  Usage: tencentUsageSchema.nullish(),
});

/** The API version every Hunyuan action is called with. */
export const hunyuanVersion = '2023-09-01';
