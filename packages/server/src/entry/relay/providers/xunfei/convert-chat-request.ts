import type { OpenAIChatRequest, OpenAIMessage } from '@switchboard/contracts';
import type { SparkFunction, SparkMessage, SparkRequestBody } from './spark-api.ts';
import type { SparkVersion } from './spark-version.ts';

export interface ConvertedSparkRequest {
  readonly body: SparkRequestBody;
  readonly warnings: string[];
}

/** iFlytek caps `uid` at 32 characters. */
const maxUidLength = 32;

/** The text of a message; Spark's chat API takes text only, so other parts are dropped (and said so). */
function textOf(message: OpenAIMessage, warnings: string[]): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!content) return '';
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text += part.text ?? '';
    else warnings.push(`${part.type} content dropped: Spark chat takes text only`);
  }
  return text;
}

/**
 * Versions without a system role get it as new-api sends it: a user turn that the assistant
 * acknowledges, so the turns still alternate. Spark's turns have no tool-call fields: a call the
 * assistant made is its content (as JSON), a tool's result goes back as a user turn.
 */
function convertMessages(messages: OpenAIMessage[], version: SparkVersion, warnings: string[]): SparkMessage[] {
  const converted: SparkMessage[] = [];
  for (const message of messages) {
    const content = textOf(message, warnings);
    const role = message.role === 'developer' ? 'system' : message.role === 'tool' ? 'user' : message.role;
    if (role === 'system' && !version.takesSystemRole) {
      converted.push({ role: 'user', content }, { role: 'assistant', content: 'Okay' });
      continue;
    }
    const calls = message.tool_calls ?? [];
    if (role === 'assistant' && !content && calls.length > 0) {
      converted.push({ role, content: JSON.stringify(calls.map((call) => call.function)) });
      continue;
    }
    converted.push({ role, content });
  }
  return converted;
}

function convertTools(request: OpenAIChatRequest, warnings: string[]): SparkFunction[] | undefined {
  if (!request.tools?.length) return undefined;
  if (request.tool_choice && request.tool_choice !== 'auto') warnings.push('tool_choice dropped: Spark decides itself whether to call a function');
  return request.tools.map((tool) => ({
    name: tool.function.name,
    ...(tool.function.description ? { description: tool.function.description } : {}),
    parameters: tool.function.parameters ?? { type: 'object', properties: {} },
  }));
}

/** Parameters OpenAI callers send that Spark has no field for. */
const unsupported = ['top_p', 'stop', 'presence_penalty', 'frequency_penalty', 'seed', 'response_format'] as const;

/**
 * An OpenAI chat request → the one message a Spark WebSocket session starts with: the app id in the
 * header, the version's domain and sampling in `parameter.chat`, the turns in `payload.message`,
 * the tools as `payload.functions`.
 * @see https://www.xfyun.cn/doc/spark/Web.html#_1-%E6%8E%A5%E5%8F%A3%E8%AF%B4%E6%98%8E
 */
export function convertChatRequest(request: OpenAIChatRequest, appId: string, version: SparkVersion): ConvertedSparkRequest {
  const warnings: string[] = [];
  const chat: SparkRequestBody['parameter']['chat'] = { domain: version.domain };
  if (typeof request.temperature === 'number') chat.temperature = request.temperature;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === 'number') chat.max_tokens = maxTokens;
  if (typeof request.top_k === 'number') chat.top_k = request.top_k;
  for (const name of unsupported) if (request[name] !== undefined && request[name] !== null) warnings.push(`${name} dropped: Spark has no such parameter`);
  if (typeof request.n === 'number' && request.n > 1) warnings.push('n dropped: Spark answers once');
  const header: SparkRequestBody['header'] = { app_id: appId };
  if (request.user) header.uid = request.user.slice(0, maxUidLength);
  const body: SparkRequestBody = { header, parameter: { chat }, payload: { message: { text: convertMessages(request.messages, version, warnings) } } };
  const functions = convertTools(request, warnings);
  if (functions) body.payload.functions = { text: functions };
  return { body, warnings };
}
