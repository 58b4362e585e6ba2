import { z } from 'zod';

/**
 * The Anthropic Messages API wire format, as far as the gateway reads or writes it. Schemas are
 * minimal and tolerant (unknown fields kept, nulls accepted): only what a converter uses is checked.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */

export const claudeCacheControlSchema = z.looseObject({ type: z.string(), ttl: z.string().nullish() });

const claudeImageSourceSchema = z.looseObject({
  type: z.string(),
  media_type: z.string().nullish(),
  data: z.string().nullish(),
  url: z.string().nullish(),
});

/**
 * One content block of a request or an answer (text, image, document, tool_use, tool_result, thinking,
 * and the server tools' blocks). `content` is a string or blocks for tool results, but an object for
 * several server-tool results (`web_fetch_tool_result`, code execution, tool search, a search error),
 * and `source` is a URL string on `search_result` blocks: both accept every shape.
 */
export const claudeContentBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  source: z.union([claudeImageSourceSchema, z.string()]).nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  input: z.unknown().optional(),
  tool_use_id: z.string().nullish(),
  content: z
    .union([
      z.string(),
      z.array(z.looseObject({ type: z.string(), text: z.string().nullish(), source: z.union([claudeImageSourceSchema, z.string()]).nullish() })),
      z.record(z.string(), z.unknown()),
    ])
    .nullish(),
  is_error: z.boolean().nullish(),
  thinking: z.string().nullish(),
  signature: z.string().nullish(),
  data: z.string().nullish(),
});
export type ClaudeContentBlock = z.infer<typeof claudeContentBlockSchema>;

/**
 * One content block of an answer. Server-tool results (web fetch, code execution, tool search,
 * advisor…) carry an object as `content`, and blocks the vendor adds later carry anything: an answer
 * block checks its `type` alone beyond what converters read, so no answer fails for a new block. A
 * block whose other fields have shapes this schema does not know is kept by its type alone, so the
 * converters skip it and everything else arrives.
 */
export const claudeAnswerBlockSchema = claudeContentBlockSchema.extend({ content: z.unknown().optional() }).catch((context) => {
  const input = context.input as { type?: unknown } | null;
  return { type: typeof input?.type === 'string' ? input.type : 'unknown' };
});
export type ClaudeAnswerBlock = z.infer<typeof claudeAnswerBlockSchema>;

export const claudeMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(claudeContentBlockSchema)]),
});
export type ClaudeMessage = z.infer<typeof claudeMessageSchema>;

export const claudeToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  input_schema: z.record(z.string(), z.unknown()).nullish(),
  type: z.string().nullish(),
});
export type ClaudeTool = z.infer<typeof claudeToolSchema>;

export const claudeToolChoiceSchema = z.looseObject({ type: z.string(), name: z.string().nullish(), disable_parallel_tool_use: z.boolean().nullish() });

/** A Messages request, as an Anthropic-format caller sends it to `/v1/messages`. */
export const claudeRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(claudeMessageSchema),
  system: z.union([z.string(), z.array(claudeContentBlockSchema)]).nullish(),
  /** Required by Anthropic, so required here: callers get the same 400 they would get upstream. */
  max_tokens: z.number().int().positive(),
  stop_sequences: z.array(z.string()).nullish(),
  stream: z.boolean().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  top_k: z.number().nullish(),
  tools: z.array(claudeToolSchema).nullish(),
  tool_choice: claudeToolChoiceSchema.nullish(),
  thinking: z.looseObject({ type: z.string(), budget_tokens: z.number().nullish() }).nullish(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).nullish(),
});
export type ClaudeRequest = z.infer<typeof claudeRequestSchema>;

export const claudeUsageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  /** The cache writes split by time to live (5 minutes, 1 hour), which are priced differently. */
  cache_creation: z.looseObject({ ephemeral_5m_input_tokens: z.number().nullish(), ephemeral_1h_input_tokens: z.number().nullish() }).nullish(),
  /** Server tools the answer used (web search and fetch requests); web searches are billed per call. */
  server_tool_use: z.looseObject({ web_search_requests: z.number().nullish(), web_fetch_requests: z.number().nullish() }).nullish(),
});
export type ClaudeUsage = z.infer<typeof claudeUsageSchema>;

/** A complete (non-streamed) Messages answer. */
export const claudeResponseSchema = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  role: z.string().nullish(),
  model: z.string().nullish(),
  content: z.array(claudeAnswerBlockSchema).nullish(),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: claudeUsageSchema.nullish(),
});
export type ClaudeResponse = z.infer<typeof claudeResponseSchema>;

/** The data of one stream event; which fields are set depends on `type`. */
export const claudeStreamEventSchema = z.looseObject({
  type: z.string(),
  message: claudeResponseSchema.nullish(),
  index: z.number().nullish(),
  content_block: claudeAnswerBlockSchema.nullish(),
  delta: z
    .looseObject({
      type: z.string().nullish(),
      text: z.string().nullish(),
      partial_json: z.string().nullish(),
      thinking: z.string().nullish(),
      signature: z.string().nullish(),
      stop_reason: z.string().nullish(),
      stop_sequence: z.string().nullish(),
      /** The citation a `citations_delta` adds to the open text block. */
      citation: z.looseObject({ type: z.string().nullish(), url: z.string().nullish(), title: z.string().nullish() }).nullish(),
    })
    .nullish(),
  usage: claudeUsageSchema.nullish(),
  error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
});
export type ClaudeStreamEvent = z.infer<typeof claudeStreamEventSchema>;

/** `{"type":"error","error":{"type","message"}}`, the body of every failed answer. */
export const claudeErrorSchema = z.looseObject({
  type: z.string().nullish(),
  error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** The API version header value when the caller does not send one. */
export const defaultAnthropicVersion = '2023-06-01';
