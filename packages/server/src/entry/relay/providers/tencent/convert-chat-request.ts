import type { OpenAIChatRequest, OpenAIContentPart, OpenAIMessage, OpenAITool } from '@switchboard/contracts';

/**
 * OpenAI chat request → Hunyuan ChatCompletions body. Pure. Field names are Tencent's PascalCase;
 * system prompts are merged into one leading system message (Hunyuan allows it only first); images
 * go as `Contents` (vision models); tools as `Tools` with the parameter schema as a JSON string.
 * Hunyuan has no output token limit, so `max_tokens` can only be reported as dropped.
 * @see https://github.com/TencentCloud/tencentcloud-sdk-nodejs/blob/master/src/services/hunyuan/v20230901/hunyuan_models.ts
 */

export interface TencentContent {
  Type: 'text' | 'image_url';
  Text?: string;
  ImageUrl?: { Url: string };
}

export interface TencentRequestToolCall {
  Id: string;
  Type: 'function';
  Function: { Name: string; Arguments: string };
}

export interface TencentMessage {
  Role: string;
  Content?: string;
  Contents?: TencentContent[];
  ToolCallId?: string;
  ToolCalls?: TencentRequestToolCall[];
}

export interface TencentTool {
  Type: 'function';
  Function: { Name: string; Parameters: string; Description?: string };
}

export interface TencentChatRequestBody {
  Model: string;
  Messages: TencentMessage[];
  Stream?: boolean;
  Temperature?: number;
  TopP?: number;
  Stop?: string[];
  Seed?: number;
  Tools?: TencentTool[];
  ToolChoice?: 'none' | 'auto' | 'custom';
  CustomTool?: TencentTool;
}

export interface ConvertedTencentRequest {
  body: TencentChatRequestBody;
  warnings: string[];
}

export function convertChatRequest(request: OpenAIChatRequest, model: string): ConvertedTencentRequest {
  const warnings: string[] = [];
  const system: string[] = [];
  const messages: TencentMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      const text = plainText(message.content);
      if (text) system.push(text);
      continue;
    }
    messages.push(convertMessage(message));
  }
  if (system.length > 0) messages.unshift({ Role: 'system', Content: system.join('\n') });
  const body: TencentChatRequestBody = { Model: model, Messages: messages };
  if (request.stream) body.Stream = true;
  if (request.temperature !== undefined && request.temperature !== null) body.Temperature = request.temperature;
  if (request.top_p !== undefined && request.top_p !== null) body.TopP = request.top_p;
  if (request.stop !== undefined && request.stop !== null) body.Stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.seed !== undefined && request.seed !== null) body.Seed = request.seed;
  if (request.tools && request.tools.length > 0) body.Tools = request.tools.map(convertTool);
  applyToolChoice(body, request, warnings);

  if (request.max_tokens !== undefined && request.max_tokens !== null) warnings.push('max_tokens ignored: Hunyuan has no output limit parameter');
  if (request.max_completion_tokens !== undefined && request.max_completion_tokens !== null) warnings.push('max_completion_tokens ignored');
  if (request.n !== undefined && request.n !== null && request.n > 1) warnings.push('n above 1 ignored: Hunyuan answers one choice');
  if (request.response_format && request.response_format.type !== 'text') warnings.push(`response_format ${request.response_format.type} ignored`);
  for (const field of ['presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs'] as const) {
    if (request[field] !== undefined && request[field] !== null) warnings.push(`${field} ignored`);
  }
  return { body, warnings };
}

function convertMessage(message: OpenAIMessage): TencentMessage {
  if (message.role === 'tool' || message.role === 'function') {
    return { Role: 'tool', Content: plainText(message.content), ToolCallId: message.tool_call_id ?? message.name ?? '' };
  }
  const converted: TencentMessage = { Role: message.role };
  const content = message.content;
  if (Array.isArray(content) && content.some((part) => part.type === 'image_url')) converted.Contents = content.flatMap(convertPart);
  else converted.Content = plainText(content);
  if (message.role === 'assistant' && message.tool_calls && message.tool_calls.length > 0) {
    converted.ToolCalls = message.tool_calls.map((call) => ({
      Id: call.id ?? '',
      Type: 'function',
      Function: { Name: call.function.name, Arguments: call.function.arguments ?? '{}' },
    }));
  }
  return converted;
}

function plainText(content: OpenAIMessage['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text' && part.text)
    .map((part) => part.text ?? '')
    .join('\n');
}

function convertPart(part: OpenAIContentPart): TencentContent[] {
  if (part.type === 'text' && part.text) return [{ Type: 'text', Text: part.text }];
  if (part.type === 'image_url' && part.image_url) {
    const url = typeof part.image_url === 'string' ? part.image_url : part.image_url.url;
    return [{ Type: 'image_url', ImageUrl: { Url: url } }];
  }
  return [];
}

function convertTool(tool: OpenAITool): TencentTool {
  const converted: TencentTool = {
    Type: 'function',
    Function: { Name: tool.function.name, Parameters: JSON.stringify(tool.function.parameters ?? { type: 'object', properties: {} }) },
  };
  if (tool.function.description) converted.Function.Description = tool.function.description;
  return converted;
}

/** OpenAI's `none`/`auto` are Hunyuan's; a named function is `custom` plus that tool; `required` has no equivalent. */
function applyToolChoice(body: TencentChatRequestBody, request: OpenAIChatRequest, warnings: string[]): void {
  const choice = request.tool_choice;
  if (choice === 'none' || choice === 'auto') body.ToolChoice = choice;
  else if (choice === 'required') warnings.push('tool_choice required sent as auto: Hunyuan cannot force some tool');
  else if (choice && typeof choice === 'object' && choice.function?.name) {
    const tool = body.Tools?.find((candidate) => candidate.Function.Name === choice.function?.name);
    if (tool) {
      body.ToolChoice = 'custom';
      body.CustomTool = tool;
    } else warnings.push(`tool_choice ${choice.function.name} ignored: no such tool`);
  }
}
