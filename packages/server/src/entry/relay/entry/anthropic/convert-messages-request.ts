import type { ClaudeContentBlock, ClaudeRequest } from '../../providers/claude/claude-api.ts';

/**
 * Anthropic Messages request (an Anthropic-format caller) → a clean OpenAI chat request, which the
 * relay sends to whatever channel is chosen. What OpenAI cannot express (prompt-caching marks,
 * thinking and its signatures, top_k) is left out: real OpenAI refuses unknown fields, and a
 * Claude channel receives the caller's original request instead (see `withCallerRequest`).
 * @see https://docs.anthropic.com/en/api/messages
 */

type Json = Record<string, unknown>;

export function convertMessagesRequest(request: ClaudeRequest): Json {
  const messages: Json[] = [];
  const system = systemMessage(request.system);
  if (system) messages.push(system);
  for (const message of request.messages) {
    if (typeof message.content === 'string') {
      messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: message.content });
      continue;
    }
    if (message.role === 'assistant') messages.push(assistantMessage(message.content));
    else messages.push(...userMessages(message.content));
  }

  const body: Json = { model: request.model, messages };
  body.max_tokens = request.max_tokens;
  if (request.stop_sequences && request.stop_sequences.length > 0) body.stop = request.stop_sequences;
  if (request.temperature !== undefined && request.temperature !== null) body.temperature = request.temperature;
  if (request.top_p !== undefined && request.top_p !== null) body.top_p = request.top_p;
  if (request.metadata?.user_id) body.user = request.metadata.user_id;
  if (request.stream) {
    body.stream = true;
    // The Anthropic stream ends with usage in message_delta: it is always needed.
    body.stream_options = { include_usage: true };
  }
  const tools = (request.tools ?? []).filter((tool) => !tool.type || tool.type === 'custom');
  if (tools.length > 0) {
    body.tools = tools.map((tool) => {
      return {
        type: 'function',
        function: { name: tool.name, description: tool.description ?? undefined, parameters: tool.input_schema ?? { type: 'object', properties: {} } },
      };
    });
  }
  const choice = request.tool_choice;
  if (choice) {
    if (choice.type === 'any') body.tool_choice = 'required';
    else if (choice.type === 'none') body.tool_choice = 'none';
    else if (choice.type === 'tool' && choice.name) body.tool_choice = { type: 'function', function: { name: choice.name } };
    else body.tool_choice = 'auto';
    if (choice.disable_parallel_tool_use) body.parallel_tool_calls = false;
  }
  return body;
}

function systemMessage(system: ClaudeRequest['system']): Json | undefined {
  if (!system) return undefined;
  if (typeof system === 'string') return system ? { role: 'system', content: system } : undefined;
  const parts = system.filter((block) => block.type === 'text' && block.text).map(textPart);
  return parts.length > 0 ? { role: 'system', content: parts } : undefined;
}

function textPart(block: ClaudeContentBlock): Json {
  return { type: 'text', text: block.text ?? '' };
}

/** `{type:'base64'|'url'}` media sources → the data URL or URL OpenAI parts carry (a search result's source is its URL). */
function mediaUrl(source: ClaudeContentBlock['source']): string {
  if (!source) return '';
  if (typeof source === 'string') return source;
  if (source.type === 'url') return source.url ?? '';
  return `data:${source.media_type ?? 'application/octet-stream'};base64,${source.data ?? ''}`;
}

function contentPart(block: ClaudeContentBlock): Json | undefined {
  if (block.type === 'text') return textPart(block);
  if (block.type === 'image') return { type: 'image_url', image_url: { url: mediaUrl(block.source) } };
  const source = typeof block.source === 'string' ? undefined : block.source;
  if (block.type === 'document' && source && source.type !== 'text') return { type: 'file', file: { file_data: mediaUrl(source) } };
  if (block.type === 'document' && source?.data) return { type: 'text', text: source.data };
  return undefined;
}

function toolResultText(content: ClaudeContentBlock['content']): string {
  if (!content) return '';
  if (typeof content === 'string') return content;
  // A server tool's result object has no text for a client tool message.
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

/** Tool results become `tool` messages first (OpenAI wants them right after the calls), then the rest. */
function userMessages(blocks: readonly ClaudeContentBlock[]): Json[] {
  const messages: Json[] = [];
  const parts: Json[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      const text = toolResultText(block.content);
      messages.push({ role: 'tool', tool_call_id: block.tool_use_id ?? '', content: block.is_error ? `Error: ${text}` : text });
      continue;
    }
    const part = contentPart(block);
    if (part) parts.push(part);
  }
  if (parts.length > 0) messages.push({ role: 'user', content: parts });
  return messages;
}

function assistantMessage(blocks: readonly ClaudeContentBlock[]): Json {
  let text = '';
  const toolCalls: Json[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text += block.text ?? '';
    else if (block.type === 'tool_use')
      toolCalls.push({ id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) } });
  }
  const message: Json = { role: 'assistant', content: text || null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}
