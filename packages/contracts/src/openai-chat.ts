import { z } from 'zod';

/**
 * OpenAI Chat Completions shapes, as far as the gateway reads or writes them: the request native
 * providers convert from, and the answer and stream chunks they convert to. Request schemas are
 * tolerant (unknown fields kept, nulls accepted) because callers send every dialect of this API.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */

export const openAIContentPartSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  image_url: z.union([z.string(), z.looseObject({ url: z.string(), detail: z.string().nullish() })]).nullish(),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }).nullish(),
  file: z.looseObject({ file_data: z.string().nullish(), filename: z.string().nullish(), file_id: z.string().nullish() }).nullish(),
});
export type OpenAIContentPart = z.infer<typeof openAIContentPartSchema>;

export const openAIToolCallSchema = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
});
export type OpenAIToolCall = z.infer<typeof openAIToolCallSchema>;

export const openAIMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(openAIContentPartSchema)]).nullish(),
  name: z.string().nullish(),
  tool_calls: z.array(openAIToolCallSchema).nullish(),
  tool_call_id: z.string().nullish(),
  reasoning_content: z.string().nullish(),
});
export type OpenAIMessage = z.infer<typeof openAIMessageSchema>;

export const openAIToolSchema = z.looseObject({
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string(), description: z.string().nullish(), parameters: z.record(z.string(), z.unknown()).nullish() }),
});
export type OpenAITool = z.infer<typeof openAIToolSchema>;

export const openAIToolChoiceSchema = z.union([
  z.string(),
  z.looseObject({ type: z.string().nullish(), function: z.looseObject({ name: z.string() }).nullish() }),
]);
export type OpenAIToolChoice = z.infer<typeof openAIToolChoiceSchema>;

export const openAIChatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(openAIMessageSchema),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().nullish(),
  max_completion_tokens: z.number().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  top_k: z.number().nullish(),
  n: z.number().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  presence_penalty: z.number().nullish(),
  frequency_penalty: z.number().nullish(),
  seed: z.number().nullish(),
  user: z.string().nullish(),
  tools: z.array(openAIToolSchema).nullish(),
  tool_choice: openAIToolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: z.looseObject({ type: z.string(), json_schema: z.looseObject({ schema: z.unknown() }).nullish() }).nullish(),
  reasoning_effort: z.string().nullish(),
});
export type OpenAIChatRequest = z.infer<typeof openAIChatRequestSchema>;

/** Usage as OpenAI reports it: `prompt_tokens` includes cached and cache-write tokens. */
export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number; cache_creation_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export type OpenAIFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/**
 * A web source the answer cites, as OpenAI's search models mark it: the span of `content` it supports.
 * @see https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat
 */
export interface OpenAIUrlCitation {
  type: 'url_citation';
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}

export interface OpenAIAssistantMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string;
  annotations?: OpenAIUrlCitation[];
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  /** Anthropic thinking blocks with their signatures, which a later turn must send back (LiteLLM's extension). */
  thinking_blocks?: { type: string; thinking?: string; signature?: string; data?: string }[];
}

export interface OpenAIChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: { index: number; message: OpenAIAssistantMessage; finish_reason: OpenAIFinishReason | null }[];
  usage?: OpenAIUsage;
}

export interface OpenAIChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  /** The signature closing an Anthropic thinking block (extension; OpenAI clients ignore it). */
  thinking_signature?: string;
  annotations?: OpenAIUrlCitation[];
  tool_calls?: { index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }[];
}

export interface OpenAIChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: { index: number; delta: OpenAIChunkDelta; finish_reason: OpenAIFinishReason | null }[];
  usage?: OpenAIUsage;
}

/**
 * One streamed chunk with a single choice, as OpenAI writes them: what every converted stream sends
 * (`source` is the conversion context: the caller's model and the answer's creation time).
 */
export function chatChunk(
  id: string,
  source: { readonly createdAt: number; readonly model: string },
  delta: OpenAIChunkDelta,
  finishReason: OpenAIFinishReason | null = null,
  index = 0,
): OpenAIChatChunk {
  return { id, object: 'chat.completion.chunk', created: source.createdAt, model: source.model, choices: [{ index, delta, finish_reason: finishReason }] };
}
