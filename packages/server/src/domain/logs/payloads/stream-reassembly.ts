import { parseSseText } from '@switchboard/contracts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The JSON objects of a streamed answer as the caller got it: SSE `data:` frames, or Gemini's growing JSON array. */
function streamObjects(streamText: string): JsonObject[] {
  const trimmed = streamText.trimStart();
  if (trimmed.startsWith('[')) {
    const array = safeParseJson(trimmed);
    if (array.ok && Array.isArray(array.value)) return array.value.filter(isObject);
  }
  const objects: JsonObject[] = [];
  for (const event of parseSseText(streamText)) {
    if (event.data === '[DONE]') continue;
    const parsed = safeParseJson(event.data);
    if (parsed.ok && isObject(parsed.value)) objects.push(parsed.value);
  }
  return objects;
}

interface ToolCallParts {
  id: string;
  type: string;
  name: string;
  arguments: string;
}

/** OpenAI chat chunks (`chat.completion.chunk`) → one `chat.completion`. */
function reassembleChat(chunks: readonly JsonObject[]): JsonObject {
  const choices = new Map<number, { content: string; reasoning: string; role: string; finish: unknown; tools: Map<number, ToolCallParts> }>();
  let usage: unknown;
  const errors: unknown[] = [];
  for (const chunk of chunks) {
    if (chunk.error !== undefined) errors.push(chunk.error);
    if (isObject(chunk.usage)) usage = chunk.usage;
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices.filter(isObject) : []) {
      const index = typeof choice.index === 'number' ? choice.index : 0;
      const state = choices.get(index) ?? { content: '', reasoning: '', role: 'assistant', finish: null, tools: new Map() };
      choices.set(index, state);
      const delta = isObject(choice.delta) ? choice.delta : {};
      state.content += text(delta.content);
      state.reasoning += text(delta.reasoning_content) + text(delta.reasoning);
      if (typeof delta.role === 'string') state.role = delta.role;
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) state.finish = choice.finish_reason;
      for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isObject) : []) {
        const callIndex = typeof call.index === 'number' ? call.index : state.tools.size;
        const parts = state.tools.get(callIndex) ?? { id: '', type: 'function', name: '', arguments: '' };
        state.tools.set(callIndex, parts);
        parts.id ||= text(call.id);
        parts.type = text(call.type) || parts.type;
        const fn = isObject(call.function) ? call.function : {};
        parts.name += text(fn.name);
        parts.arguments += text(fn.arguments);
      }
    }
  }
  const first = chunks.find((chunk) => chunk.id !== undefined) ?? {};
  return {
    id: first.id,
    object: 'chat.completion',
    created: first.created,
    model: first.model,
    choices: [...choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => ({
        index,
        message: {
          role: state.role,
          content: state.content,
          ...(state.reasoning ? { reasoning_content: state.reasoning } : {}),
          ...(state.tools.size > 0
            ? {
                tool_calls: [...state.tools.values()].map((call) => ({
                  id: call.id,
                  type: call.type,
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: state.finish,
      })),
    ...(usage === undefined ? {} : { usage }),
    ...(errors.length > 0 ? { error: errors[errors.length - 1] } : {}),
  };
}

/** Legacy completions chunks (`text_completion`) → one answer with the text of each choice. */
function reassembleCompletion(chunks: readonly JsonObject[]): JsonObject {
  const choices = new Map<number, { text: string; finish: unknown }>();
  let usage: unknown;
  for (const chunk of chunks) {
    if (isObject(chunk.usage)) usage = chunk.usage;
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices.filter(isObject) : []) {
      const index = typeof choice.index === 'number' ? choice.index : 0;
      const state = choices.get(index) ?? { text: '', finish: null };
      choices.set(index, state);
      state.text += text(choice.text);
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) state.finish = choice.finish_reason;
    }
  }
  const first = chunks[0] ?? {};
  return {
    id: first.id,
    object: 'text_completion',
    created: first.created,
    model: first.model,
    choices: [...choices.entries()].sort(([a], [b]) => a - b).map(([index, state]) => ({ index, text: state.text, finish_reason: state.finish })),
    ...(usage === undefined ? {} : { usage }),
  };
}

/** Responses API events: `response.completed` carries the whole response; else the text deltas. */
function reassembleResponses(events: readonly JsonObject[]): JsonObject {
  const finished = [...events].reverse().find((event) => ['response.completed', 'response.incomplete', 'response.failed'].includes(text(event.type)));
  if (finished && isObject(finished.response)) return finished.response;
  const outputText = events
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => text(event.delta))
    .join('');
  return { object: 'response', output_text: outputText };
}

/** Anthropic Messages events → one `message` with its content blocks whole (tool inputs parsed). */
function reassembleAnthropic(events: readonly JsonObject[]): JsonObject {
  let message: JsonObject = {};
  const blocks = new Map<number, JsonObject & { partialJson?: string }>();
  for (const event of events) {
    const index = typeof event.index === 'number' ? event.index : 0;
    if (event.type === 'message_start' && isObject(event.message)) message = { ...event.message };
    else if (event.type === 'content_block_start' && isObject(event.content_block)) blocks.set(index, { ...event.content_block });
    else if (event.type === 'content_block_delta' && isObject(event.delta)) {
      const block = blocks.get(index) ?? { type: 'text', text: '' };
      blocks.set(index, block);
      const delta = event.delta;
      if (delta.type === 'text_delta') block.text = text(block.text) + text(delta.text);
      else if (delta.type === 'thinking_delta') block.thinking = text(block.thinking) + text(delta.thinking);
      else if (delta.type === 'signature_delta') block.signature = text(block.signature) + text(delta.signature);
      else if (delta.type === 'input_json_delta') block.partialJson = (block.partialJson ?? '') + text(delta.partial_json);
    } else if (event.type === 'message_delta') {
      if (isObject(event.delta)) message = { ...message, ...event.delta };
      if (isObject(event.usage)) message.usage = { ...(isObject(message.usage) ? message.usage : {}), ...event.usage };
    } else if (event.type === 'error') message.error = event.error;
  }
  const content = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, { partialJson, ...block }]) => {
      if (partialJson === undefined) return block;
      const input = safeParseJson(partialJson || '{}');
      return { ...block, input: input.ok ? input.value : partialJson };
    });
  return { ...message, content };
}

/** Gemini `GenerateContentResponse` chunks → one response: adjacent text parts of each candidate joined. */
function reassembleGemini(chunks: readonly JsonObject[]): JsonObject {
  const candidates = new Map<number, { role: string; parts: JsonObject[]; finishReason: unknown }>();
  let usageMetadata: unknown;
  let modelVersion: unknown;
  for (const chunk of chunks) {
    if (chunk.usageMetadata !== undefined) usageMetadata = chunk.usageMetadata;
    if (chunk.modelVersion !== undefined) modelVersion = chunk.modelVersion;
    for (const [position, candidate] of (Array.isArray(chunk.candidates) ? chunk.candidates.filter(isObject) : []).entries()) {
      const index = typeof candidate.index === 'number' ? candidate.index : position;
      const state = candidates.get(index) ?? { role: 'model', parts: [], finishReason: undefined };
      candidates.set(index, state);
      if (candidate.finishReason !== undefined) state.finishReason = candidate.finishReason;
      const content = isObject(candidate.content) ? candidate.content : {};
      if (typeof content.role === 'string') state.role = content.role;
      for (const part of Array.isArray(content.parts) ? content.parts.filter(isObject) : []) {
        const last = state.parts[state.parts.length - 1];
        const joinable = last && typeof last.text === 'string' && typeof part.text === 'string' && Boolean(last.thought) === Boolean(part.thought);
        if (joinable) last.text = text(last.text) + text(part.text);
        else state.parts.push({ ...part });
      }
    }
  }
  return {
    candidates: [...candidates.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => ({
        index,
        content: { role: state.role, parts: state.parts },
        ...(state.finishReason === undefined ? {} : { finishReason: state.finishReason }),
      })),
    ...(usageMetadata === undefined ? {} : { usageMetadata }),
    ...(modelVersion === undefined ? {} : { modelVersion }),
  };
}

const anthropicEvents = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping']);

/**
 * One final answer from a streamed one, in the dialect the caller got it (OpenAI chat or completions,
 * Responses, Anthropic Messages, Gemini): the text and tool calls of all its chunks joined into the
 * message a non-streamed call would have answered, with its usage. Undefined when the stream holds
 * no JSON it recognises (the raw text is then stored instead).
 */
export function reassembleStream(streamText: string): JsonObject | undefined {
  const objects = streamObjects(streamText);
  const sample = objects.find((object) => object.error === undefined) ?? objects[0];
  if (!sample) return undefined;
  const type = text(sample.type);
  if (type.startsWith('response.')) return reassembleResponses(objects);
  if (anthropicEvents.has(type) || type === 'error') return reassembleAnthropic(objects);
  if (Array.isArray(sample.candidates) || sample.usageMetadata !== undefined) return reassembleGemini(objects);
  if (sample.object === 'text_completion') return reassembleCompletion(objects);
  if (sample.object === 'chat.completion.chunk' || Array.isArray(sample.choices) || sample.error !== undefined) return reassembleChat(objects);
  return undefined;
}
