import { z } from 'zod';

/**
 * Dify's app API (chat-messages, files/upload), as far as the gateway reads or writes it. Minimal,
 * tolerant schemas.
 * @see https://docs.dify.ai/en/openapi-api-access-readme (an app's "API Access" page documents the same)
 * @see https://github.com/langgenius/dify/blob/main/web/app/components/develop/template/template_chat.en.mdx
 */

export const difyUsageSchema = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
});

const metadataSchema = z.looseObject({ usage: difyUsageSchema.nullish() });

/** The answer of a `blocking` call. */
export const difyChatResponseSchema = z.looseObject({
  message_id: z.string().nullish(),
  conversation_id: z.string().nullish(),
  answer: z.string().nullish(),
  metadata: metadataSchema.nullish(),
});

/** The data of one `streaming` event; which fields are set depends on `event`. */
export const difyStreamEventSchema = z.looseObject({
  event: z.string(),
  message_id: z.string().nullish(),
  conversation_id: z.string().nullish(),
  id: z.string().nullish(),
  answer: z.string().nullish(),
  tool: z.string().nullish(),
  tool_input: z.string().nullish(),
  metadata: metadataSchema.nullish(),
  status: z.number().nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

/** `{"status": 400, "code": "invalid_param", "message": "..."}`, the body of every failed answer. */
export const difyErrorSchema = z.looseObject({ code: z.string().nullish(), message: z.string().nullish(), status: z.number().nullish() });

/** The answer of `POST /v1/files/upload`. */
export const difyUploadSchema = z.looseObject({ id: z.string() });

export interface DifyFile {
  type: 'image';
  transfer_mode: 'remote_url' | 'local_file';
  url?: string;
  upload_file_id?: string;
  /**
   * Not Dify's: an inline image (data URL) the Dify transport uploads before the call, then replaces
   * by the `upload_file_id` Dify gives it. Never reaches Dify.
   */
  [pendingUploadField]?: string;
}

export const pendingUploadField = 'switchboard_pending_upload';

export interface DifyChatRequest {
  inputs: Record<string, unknown>;
  query: string;
  response_mode: 'blocking' | 'streaming';
  user: string;
  conversation_id?: string;
  auto_generate_name: boolean;
  files: DifyFile[];
}
