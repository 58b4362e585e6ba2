import { z } from 'zod';

/**
 * Coze's bot chat API v3, as far as the gateway reads or writes it. Minimal, tolerant schemas.
 * @see https://www.coze.com/open/docs/developer_guides/chat_v3
 * @see https://www.coze.com/open/docs/developer_guides/retrieve_chat
 * @see https://www.coze.com/open/docs/developer_guides/list_chat_messages
 */

export const cozeUsageSchema = z.looseObject({ token_count: z.number().nullish(), output_count: z.number().nullish(), input_count: z.number().nullish() });

const lastErrorSchema = z.looseObject({ code: z.number().nullish(), msg: z.string().nullish() });

/** A chat object: what `/v3/chat` and `/v3/chat/retrieve` answer, and the data of `conversation.chat.*` events. */
export const cozeChatSchema = z.looseObject({
  id: z.string().nullish(),
  conversation_id: z.string().nullish(),
  status: z.string().nullish(),
  last_error: lastErrorSchema.nullish(),
  usage: cozeUsageSchema.nullish(),
});

/** A message object: items of `/v3/chat/message/list`, and the data of `conversation.message.*` events. */
export const cozeMessageSchema = z.looseObject({
  id: z.string().nullish(),
  role: z.string().nullish(),
  type: z.string().nullish(),
  content: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  content_type: z.string().nullish(),
});

/** Every answer is wrapped: `{"code": 0, "msg": "", "data": ...}`; a non-zero code is a failure. */
export const cozeEnvelopeSchema = z.looseObject({
  code: z.number().nullish(),
  msg: z.string().nullish(),
  message: z.string().nullish(),
  data: z.unknown().optional(),
});

/**
 * What the Coze transport hands the converter for a non-streamed chat: the finished chat (with its
 * usage) and its messages, read with the two follow-up calls a non-streamed Coze chat needs.
 */
export const cozeCompletedChatSchema = z.looseObject({ chat: cozeChatSchema, messages: z.array(cozeMessageSchema) });

export interface CozeAdditionalMessage {
  role: 'user' | 'assistant';
  type: 'question' | 'answer';
  content: string;
  content_type: 'text' | 'object_string';
}

export interface CozeChatRequest {
  bot_id: string;
  user_id: string;
  stream: boolean;
  additional_messages: CozeAdditionalMessage[];
}
