import type { OpenAIChatRequest, OpenAIMessage } from '@switchboard/contracts';

/**
 * OpenAI chat request → Wenxin Workshop chat body. Pure. Baidu takes the system prompt as a field,
 * wants user and assistant turns to alternate (consecutive turns of one role are merged here), and
 * reads plain text only; what it cannot take is reported as warnings.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/clntwmv7t
 */

export interface BaiduChatRequestBody {
  messages: { role: 'user' | 'assistant'; content: string }[];
  system?: string;
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  max_output_tokens?: number;
  user_id?: string;
  response_format?: 'json_object' | 'text';
}

export interface ConvertedBaiduRequest {
  body: BaiduChatRequestBody;
  warnings: string[];
}

/** Baidu's temperature is in (0, 1]; 0 is refused. */
const minimumTemperature = 0.01;
/** `max_output_tokens` must be at least 2. */
const minimumOutputTokens = 2;

export function convertChatRequest(request: OpenAIChatRequest): ConvertedBaiduRequest {
  const warnings: string[] = [];
  const body: BaiduChatRequestBody = { messages: [] };
  const system: string[] = [];
  let droppedParts = false;
  let droppedTools = false;
  for (const message of request.messages) {
    const { text, dropped } = messageText(message);
    droppedParts ||= dropped;
    if (message.role === 'system' || message.role === 'developer') {
      if (text) system.push(text);
      continue;
    }
    if (message.role === 'tool' || message.role === 'function' || (message.tool_calls && message.tool_calls.length > 0)) droppedTools = true;
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    if (!text) continue;
    const previous = body.messages.at(-1);
    if (previous && previous.role === message.role) previous.content += `\n${text}`;
    else body.messages.push({ role: message.role, content: text });
  }
  if (system.length > 0) body.system = system.join('\n');
  if (droppedParts) warnings.push('non-text content parts dropped: ERNIE v1 reads text only');
  if (droppedTools || (request.tools && request.tools.length > 0)) warnings.push('tools and tool messages ignored');

  if (request.stream) body.stream = true;
  if (request.temperature !== undefined && request.temperature !== null) {
    body.temperature = Math.min(Math.max(request.temperature, minimumTemperature), 1);
    if (body.temperature !== request.temperature) warnings.push(`temperature ${request.temperature} moved into Baidu's range (0, 1]`);
  }
  if (request.top_p !== undefined && request.top_p !== null) body.top_p = request.top_p;
  if (request.stop !== undefined && request.stop !== null) body.stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null && maxTokens > 0) body.max_output_tokens = Math.max(maxTokens, minimumOutputTokens);
  if (request.user) body.user_id = request.user;
  if (request.response_format?.type === 'json_object') body.response_format = 'json_object';
  else if (request.response_format && request.response_format.type !== 'text') warnings.push(`response_format ${request.response_format.type} ignored`);
  // penalty_score is a repetition penalty in [1, 2], not OpenAI's frequency penalty in [-2, 2].
  for (const field of ['frequency_penalty', 'presence_penalty', 'seed', 'logit_bias', 'logprobs'] as const) {
    if (request[field] !== undefined && request[field] !== null) warnings.push(`${field} ignored`);
  }
  if (request.n !== undefined && request.n !== null && request.n > 1) warnings.push('n above 1 ignored: ERNIE answers one choice');
  return { body, warnings };
}

function messageText(message: OpenAIMessage): { text: string; dropped: boolean } {
  const content = message.content;
  if (content === undefined || content === null) return { text: '', dropped: false };
  if (typeof content === 'string') return { text: content, dropped: false };
  const texts = content.filter((part) => part.type === 'text' && part.text).map((part) => part.text ?? '');
  return { text: texts.join('\n'), dropped: texts.length < content.length };
}
