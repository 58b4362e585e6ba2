import type { OpenAIChatRequest, OpenAIMessage } from '@switchboard/contracts';
import type { ZhipuRequestBody } from './zhipu-api.ts';

export interface ConvertedZhipuRequest {
  body: ZhipuRequestBody;
  warnings: string[];
}

/**
 * OpenAI chat request → ChatGLM v3 `prompt` body. v3 knows only user and assistant turns of plain
 * text: a system message becomes a user turn answered "Okay" by the assistant (new-api's way, which
 * keeps the turns alternating), text parts are joined, everything else is dropped with a warning.
 * Sampling follows v3's ranges: temperature in (0, 1], top_p in (0, 1).
 * @see https://open.bigmodel.cn/dev/api#chatglm_turbo
 */
export function convertChatRequest(request: OpenAIChatRequest, stream: boolean): ConvertedZhipuRequest {
  const warnings: string[] = [];
  const prompt: ZhipuRequestBody['prompt'] = [];
  for (const message of request.messages) appendMessage(prompt, message, warnings);
  const body: ZhipuRequestBody = { prompt };

  if (typeof request.temperature === 'number') {
    body.temperature = Math.min(Math.max(request.temperature, 0.01), 1);
    if (body.temperature !== request.temperature) warnings.push(`temperature ${request.temperature} moved into ChatGLM's range (0, 1]`);
  }
  if (typeof request.top_p === 'number') {
    body.top_p = Math.min(Math.max(request.top_p, 0.01), 0.99);
    if (body.top_p !== request.top_p) warnings.push(`top_p ${request.top_p} moved into ChatGLM's range (0, 1)`);
  }
  if (stream) body.incremental = true;

  if (request.tools && request.tools.length > 0) warnings.push('tools ignored: ChatGLM v3 has no tool calls');
  if (typeof request.n === 'number' && request.n > 1) warnings.push('n above 1 ignored: ChatGLM v3 answers one choice');
  for (const field of ['max_tokens', 'max_completion_tokens', 'stop', 'presence_penalty', 'frequency_penalty', 'seed', 'response_format'] as const) {
    if (request[field] !== undefined && request[field] !== null) warnings.push(`${field} ignored: ChatGLM v3 has no such parameter`);
  }
  return { body, warnings };
}

function appendMessage(prompt: ZhipuRequestBody['prompt'], message: OpenAIMessage, warnings: string[]): void {
  const content = textOf(message.content, warnings);
  if (message.role === 'system' || message.role === 'developer') {
    prompt.push({ role: 'user', content }, { role: 'assistant', content: 'Okay' });
    return;
  }
  if (message.role === 'assistant') {
    prompt.push({ role: 'assistant', content });
    return;
  }
  if (message.role === 'tool' || message.role === 'function') {
    warnings.push(`a ${message.role} message was sent as a user turn: ChatGLM v3 has no tool results`);
  }
  prompt.push({ role: 'user', content });
}

function textOf(content: OpenAIMessage['content'], warnings: string[]): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text += part.text ?? '';
    else warnings.push(`a ${part.type} part was dropped: ChatGLM v3 reads text only`);
  }
  return text;
}
