import type { OpenAIChatRequest, OpenAIContentPart, OpenAIMessage, OpenAIToolChoice } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import { cleanSchema } from './clean-schema.ts';
import { readThoughtSignature } from './thought-signature.ts';

/**
 * OpenAI chat request → Gemini generateContent request. Pure; dropped parameters become warnings.
 * @see https://ai.google.dev/api/generate-content#request-body
 */

export interface GeminiPartBody {
  [field: string]: unknown;
}

export interface GeminiRequestBody {
  contents: { role: 'user' | 'model'; parts: GeminiPartBody[] }[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: { name: string; description?: string; parameters?: unknown }[] }[];
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
  safetySettings: { category: string; threshold: string }[];
  generationConfig: Record<string, unknown>;
}

export interface ConvertedGeminiRequest {
  /** The model name for the URL, with new-api's `-thinking…` suffixes removed. */
  model: string;
  body: GeminiRequestBody;
  warnings: string[];
}

/**
 * The gateway relays; it does not moderate. Like new-api (GEMINI_SAFETY_SETTING, default BLOCK_NONE)
 * every adjustable category is opened, so answers match what the caller gets from OpenAI.
 */
const safetyCategories = ['HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_DANGEROUS_CONTENT'];
export const defaultSafetySettings = safetyCategories.map((category) => ({ category, threshold: 'BLOCK_NONE' }));

const thinkingBudgetByEffort: Readonly<Record<string, number>> = { minimal: 0, low: 1024, medium: 8192, high: 24576 };

export function convertChatRequest(request: OpenAIChatRequest, upstreamModel: string): ConvertedGeminiRequest {
  const warnings: string[] = [];
  const { model, thinkingConfig } = thinkingFromModel(upstreamModel);
  const body: GeminiRequestBody = { contents: [], safetySettings: defaultSafetySettings, generationConfig: {} };

  const system: { text: string }[] = [];
  const toolNames = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      const text = plainText(message.content);
      if (text) system.push({ text });
      continue;
    }
    appendMessage(body.contents, message, toolNames);
  }
  if (system.length > 0) body.systemInstruction = { parts: system };

  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => {
          const declaration: { name: string; description?: string; parameters?: unknown } = { name: tool.function.name };
          if (tool.function.description) declaration.description = tool.function.description;
          if (hasProperties(tool.function.parameters)) declaration.parameters = cleanSchema(tool.function.parameters);
          return declaration;
        }),
      },
    ];
  }
  const toolConfig = convertToolChoice(request.tool_choice);
  if (toolConfig) body.toolConfig = toolConfig;

  const config = body.generationConfig;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null) config.maxOutputTokens = maxTokens;
  if (request.temperature !== undefined && request.temperature !== null) config.temperature = request.temperature;
  if (request.top_p !== undefined && request.top_p !== null) config.topP = request.top_p;
  if (request.top_k !== undefined && request.top_k !== null) config.topK = request.top_k;
  if (request.n !== undefined && request.n !== null && request.n > 1) config.candidateCount = request.n;
  if (request.stop !== undefined && request.stop !== null) config.stopSequences = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.presence_penalty !== undefined && request.presence_penalty !== null) config.presencePenalty = request.presence_penalty;
  if (request.frequency_penalty !== undefined && request.frequency_penalty !== null) config.frequencyPenalty = request.frequency_penalty;
  if (request.seed !== undefined && request.seed !== null) config.seed = request.seed;
  if (request.response_format?.type === 'json_object' || request.response_format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const schema = request.response_format.json_schema?.schema;
    if (schema) config.responseSchema = cleanSchema(schema);
  }
  const effortBudget = request.reasoning_effort ? thinkingBudgetByEffort[request.reasoning_effort] : undefined;
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  else if (effortBudget !== undefined)
    config.thinkingConfig = effortBudget > 0 ? { thinkingBudget: effortBudget, includeThoughts: true } : { thinkingBudget: 0 };
  if (request.user) warnings.push('user ignored');
  return { model, body, warnings };
}

/**
 * new-api's model-name convention: `-nothinking` turns thinking off, `-thinking-<n>` sets a budget,
 * `-thinking` asks for the thoughts; the suffix never reaches Google.
 */
export function thinkingFromModel(model: string): { model: string; thinkingConfig?: { thinkingBudget?: number; includeThoughts?: boolean } } {
  if (model.endsWith('-nothinking')) return { model: model.slice(0, -'-nothinking'.length), thinkingConfig: { thinkingBudget: 0 } };
  const budget = /^(.*)-thinking-(\d+)$/.exec(model);
  if (budget?.[1] && budget[2]) return { model: budget[1], thinkingConfig: { thinkingBudget: Number(budget[2]), includeThoughts: true } };
  if (model.endsWith('-thinking')) return { model: model.slice(0, -'-thinking'.length), thinkingConfig: { includeThoughts: true } };
  return { model };
}

function appendMessage(contents: GeminiRequestBody['contents'], message: OpenAIMessage, toolNames: Map<string, string>): void {
  let role: 'user' | 'model';
  let parts: GeminiPartBody[];
  if (message.role === 'tool' || message.role === 'function') {
    // Gemini answers a call by the function's name; OpenAI by the call id, so the name is looked up.
    role = 'user';
    const name = (message.tool_call_id ? toolNames.get(message.tool_call_id) : undefined) ?? message.name ?? '';
    parts = [{ functionResponse: { name, response: toolResponse(message.content) } }];
  } else if (message.role === 'assistant') {
    role = 'model';
    parts = contentParts(message.content);
    for (const call of message.tool_calls ?? []) {
      if (call.id) toolNames.set(call.id, call.function.name);
      const part: GeminiPartBody = { functionCall: { name: call.function.name, args: parseObject(call.function.arguments) } };
      // The signature Gemini gave this call goes back on its part, or Gemini 3 refuses the turn.
      const signature = readThoughtSignature(call);
      if (signature) part.thoughtSignature = signature;
      parts.push(part);
    }
  } else {
    role = 'user';
    parts = contentParts(message.content);
  }
  if (parts.length === 0) return;
  const previous = contents.at(-1);
  if (previous && previous.role === role) previous.parts.push(...parts);
  else contents.push({ role, parts });
}

function contentParts(content: OpenAIMessage['content']): GeminiPartBody[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  const parts: GeminiPartBody[] = [];
  for (const part of content) {
    const converted = convertPart(part);
    if (converted) parts.push(converted);
  }
  return parts;
}

function convertPart(part: OpenAIContentPart): GeminiPartBody | undefined {
  if (part.type === 'text') return part.text ? { text: part.text } : undefined;
  if (part.type === 'image_url' && part.image_url) return mediaPart(typeof part.image_url === 'string' ? part.image_url : part.image_url.url);
  if (part.type === 'input_audio' && part.input_audio) return { inlineData: { mimeType: `audio/${part.input_audio.format}`, data: part.input_audio.data } };
  if (part.type === 'file' && part.file?.file_data) return mediaPart(part.file.file_data);
  return undefined;
}

/** A data URL is sent inline; any other URL as file data for Google to fetch. */
export function mediaPart(url: string): GeminiPartBody {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (match) return { inlineData: { mimeType: match[1] ?? 'application/octet-stream', data: match[2] ?? '' } };
  return { fileData: { mimeType: guessMimeType(url), fileUri: url } };
}

function guessMimeType(url: string): string {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const types: Record<string, string> = {
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    pdf: 'application/pdf',
    mp3: 'audio/mp3',
    wav: 'audio/wav',
    mp4: 'video/mp4',
  };
  return (extension && types[extension]) || 'image/jpeg';
}

function toolResponse(content: OpenAIMessage['content']): Record<string, unknown> {
  const text = plainText(content);
  const parsed = safeParseJson(text);
  if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) return parsed.value as Record<string, unknown>;
  return { content: parsed.ok ? parsed.value : text };
}

function plainText(content: OpenAIMessage['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

function parseObject(text: string | null | undefined): Record<string, unknown> {
  const parsed = safeParseJson(text || '{}');
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)
    ? (parsed.value as Record<string, unknown>)
    : {};
}

function hasProperties(parameters: Record<string, unknown> | null | undefined): parameters is Record<string, unknown> {
  const properties = parameters?.properties;
  return properties !== null && typeof properties === 'object' && Object.keys(properties).length > 0;
}

function convertToolChoice(choice: OpenAIToolChoice | null | undefined): GeminiRequestBody['toolConfig'] {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice && typeof choice === 'object' && choice.function?.name)
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
  return undefined;
}
