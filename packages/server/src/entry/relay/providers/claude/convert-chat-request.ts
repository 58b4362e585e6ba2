import type { OpenAIChatRequest, OpenAIContentPart, OpenAIMessage, OpenAITool, OpenAIToolChoice } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import { reconcileSampling } from './sampling-parameters.ts';
import { minimumThinkingBudget, splitThinkingSuffix, suffixThinkingBudget } from './thinking-suffix.ts';

/**
 * OpenAI chat request → Anthropic Messages request. Pure: the pipeline has already applied model
 * mapping; the converter only translates and reports what it had to drop as warnings.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/api/openai-sdk (Anthropic's own notes on the differences)
 */

export interface ClaudeBlock {
  type: string;
  [field: string]: unknown;
}

export interface ClaudeRequestBody {
  model: string;
  messages: { role: 'user' | 'assistant'; content: ClaudeBlock[] }[];
  max_tokens: number;
  system?: ClaudeBlock[];
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  tools?: { name: string; description?: string; input_schema: Record<string, unknown>; cache_control?: unknown }[];
  tool_choice?: { type: string; name?: string; disable_parallel_tool_use?: boolean };
  thinking?: { type: 'enabled'; budget_tokens: number };
  metadata?: { user_id: string };
}

export interface ConvertedClaudeRequest {
  body: ClaudeRequestBody;
  warnings: string[];
}

/**
 * Claude 3 (not 3.5/3.7) models cap output at 4,096 tokens; everything later allows at least 8,192.
 * The name may be an Anthropic one or a mapped Bedrock/Vertex id (`anthropic.claude-3-haiku-…`,
 * `us.anthropic.claude-3-opus-…`, an inference-profile ARN, `claude-3-haiku@20240307`).
 */
export function defaultMaxTokens(model: string): number {
  return /(?:^|[./])claude-3-(?:opus|sonnet|haiku)\b/.test(model) ? 4096 : 8192;
}

const thinkingBudgetByEffort: Readonly<Record<string, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 24576 };

export function convertChatRequest(request: OpenAIChatRequest, upstreamModel: string): ConvertedClaudeRequest {
  const warnings: string[] = [];
  const { model, thinking: thinkingSuffix } = splitThinkingSuffix(upstreamModel);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens ?? defaultMaxTokens(model);
  const body: ClaudeRequestBody = { model, messages: [], max_tokens: maxTokens };

  const system: ClaudeBlock[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(...systemBlocks(message.content));
      continue;
    }
    appendMessage(body.messages, message);
  }
  if (system.length > 0) body.system = system;

  if (request.stop !== undefined && request.stop !== null) body.stop_sequences = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.stream) body.stream = true;
  if (request.temperature !== undefined && request.temperature !== null) {
    // OpenAI accepts 0–2, Anthropic 0–1.
    body.temperature = Math.min(request.temperature, 1);
    if (request.temperature > 1) warnings.push('temperature above 1 lowered to 1');
  }
  if (request.top_p !== undefined && request.top_p !== null) body.top_p = request.top_p;
  if (request.top_k !== undefined && request.top_k !== null) body.top_k = request.top_k;
  if (request.user) body.metadata = { user_id: request.user };
  if (request.tools && request.tools.length > 0) body.tools = request.tools.map(convertTool);
  const toolChoice = convertToolChoice(request.tool_choice, request.parallel_tool_calls);
  if (toolChoice) body.tool_choice = toolChoice;

  const budget = thinkingBudget(request, thinkingSuffix, maxTokens);
  if (budget !== undefined) {
    if (budget >= maxTokens || budget < minimumThinkingBudget) {
      warnings.push('thinking skipped: max_tokens leaves no room for a thinking budget');
    } else {
      body.thinking = { type: 'enabled', budget_tokens: budget };
    }
  }
  reconcileSampling(body, warnings);

  if (request.n !== undefined && request.n !== null && request.n > 1) warnings.push('n above 1 ignored: Claude answers one choice');
  if (request.response_format && request.response_format.type !== 'text') warnings.push(`response_format ${request.response_format.type} ignored`);
  for (const field of ['presence_penalty', 'frequency_penalty', 'seed', 'logit_bias', 'logprobs'] as const) {
    if (request[field] !== undefined && request[field] !== null) warnings.push(`${field} ignored`);
  }
  return { body, warnings };
}

function thinkingBudget(request: OpenAIChatRequest, thinkingSuffix: boolean, maxTokens: number): number | undefined {
  // Some OpenAI-format clients send Anthropic's own thinking object; honour it.
  const explicit = request.thinking as { type?: unknown; budget_tokens?: unknown } | undefined;
  if (explicit && explicit.type === 'enabled' && typeof explicit.budget_tokens === 'number') return explicit.budget_tokens;
  // new-api's convention: a `-thinking` model suffix thinks with 80 % of max_tokens.
  if (thinkingSuffix) return suffixThinkingBudget(maxTokens);
  const effort = request.reasoning_effort ? thinkingBudgetByEffort[request.reasoning_effort] : undefined;
  if (effort !== undefined) return Math.min(effort, Math.floor(maxTokens * 0.8));
  return undefined;
}

function appendMessage(messages: ClaudeRequestBody['messages'], message: OpenAIMessage): void {
  let role: 'user' | 'assistant';
  let blocks: ClaudeBlock[];
  if (message.role === 'tool' || message.role === 'function') {
    role = 'user';
    blocks = [{ type: 'tool_result', tool_use_id: message.tool_call_id ?? message.name ?? '', content: toolResultContent(message.content) }];
  } else if (message.role === 'assistant') {
    role = 'assistant';
    // Thinking blocks of an earlier turn must go back with their signatures (LiteLLM's field name).
    blocks = [...thinkingBlocks(message.thinking_blocks), ...contentBlocks(message.content)];
    for (const call of message.tool_calls ?? []) {
      blocks.push({ type: 'tool_use', id: call.id ?? '', name: call.function.name, input: parseArguments(call.function.arguments) });
    }
  } else {
    role = 'user';
    blocks = contentBlocks(message.content);
  }
  if (blocks.length === 0) return;
  // The API wants user and assistant turns to alternate: consecutive turns of one role are merged.
  const previous = messages.at(-1);
  if (previous && previous.role === role) previous.content.push(...blocks);
  else messages.push({ role, content: blocks });
}

function contentBlocks(content: OpenAIMessage['content']): ClaudeBlock[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const blocks: ClaudeBlock[] = [];
  for (const part of content) {
    const block = convertPart(part);
    if (block) blocks.push(block);
  }
  return blocks;
}

/** `cache_control` on a part, a system prompt or a tool: the prompt-caching extension callers send. */
function withCacheControl<T extends Record<string, unknown>>(target: T, source: Record<string, unknown>): T {
  if (source.cache_control !== null && typeof source.cache_control === 'object') (target as Record<string, unknown>).cache_control = source.cache_control;
  return target;
}

function systemBlocks(content: OpenAIMessage['content']): ClaudeBlock[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.filter((part) => part.type === 'text' && part.text).map((part) => withCacheControl({ type: 'text', text: part.text ?? '' }, part));
}

function thinkingBlocks(value: unknown): ClaudeBlock[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (block): block is ClaudeBlock => block !== null && typeof block === 'object' && (block.type === 'thinking' || block.type === 'redacted_thinking'),
  );
}

function convertPart(part: OpenAIContentPart): ClaudeBlock | undefined {
  if (part.type === 'text') return part.text ? withCacheControl({ type: 'text', text: part.text }, part) : undefined;
  if (part.type === 'image_url' && part.image_url) {
    const url = typeof part.image_url === 'string' ? part.image_url : part.image_url.url;
    return { type: 'image', source: mediaSource(url) };
  }
  if (part.type === 'file' && part.file?.file_data) {
    return { type: 'document', source: mediaSource(part.file.file_data) };
  }
  return undefined;
}

/** A data URL becomes inline base64; any other URL is passed for Anthropic to fetch. */
export function mediaSource(url: string): Record<string, string> {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (match) return { type: 'base64', media_type: match[1] ?? 'application/octet-stream', data: match[2] ?? '' };
  return { type: 'url', url };
}

function toolResultContent(content: OpenAIMessage['content']): string | ClaudeBlock[] {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return contentBlocks(content);
}

function parseArguments(text: string | null | undefined): unknown {
  if (!text) return {};
  const parsed = safeParseJson(text);
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? parsed.value : {};
}

function convertTool(tool: OpenAITool): NonNullable<ClaudeRequestBody['tools']>[number] {
  const converted: NonNullable<ClaudeRequestBody['tools']>[number] = {
    name: tool.function.name,
    input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
  };
  if (tool.function.description) converted.description = tool.function.description;
  return withCacheControl(converted, tool);
}

function convertToolChoice(choice: OpenAIToolChoice | null | undefined, parallel: boolean | null | undefined): ClaudeRequestBody['tool_choice'] {
  let converted: ClaudeRequestBody['tool_choice'];
  if (choice === 'required') converted = { type: 'any' };
  else if (choice === 'none') converted = { type: 'none' };
  else if (choice === 'auto') converted = { type: 'auto' };
  else if (choice && typeof choice === 'object' && choice.function?.name) converted = { type: 'tool', name: choice.function.name };
  if (parallel === false) {
    converted ??= { type: 'auto' };
    if (converted.type !== 'none') converted.disable_parallel_tool_use = true;
  }
  return converted;
}
