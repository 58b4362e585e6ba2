import type { GeminiPart, GeminiRequest } from '../../providers/gemini/gemini-api.ts';

type Json = Record<string, unknown>;

/**
 * Gemini generateContent request (a Gemini-format caller) → a clean OpenAI chat request, relayed
 * to any channel (a Gemini channel receives the caller's original instead: `withCallerRequest`). Gemini answers a function call by the function's name, OpenAI by a call id: calls get
 * ids here (Gemini's own when it sent one) and each response takes the oldest open id of its name.
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export function convertGenerateRequest(request: GeminiRequest, model: string, stream: boolean): Json {
  const messages: Json[] = [];
  const systemText = (request.systemInstruction?.parts ?? [])
    .map((part) => part.text ?? '')
    .filter(Boolean)
    .join('\n');
  if (systemText) messages.push({ role: 'system', content: systemText });
  const openCalls = new Map<string, string[]>();
  let callCount = 0;

  for (const content of request.contents) {
    const parts = content.parts ?? [];
    if (content.role === 'model') {
      let text = '';
      const toolCalls: Json[] = [];
      for (const part of parts) {
        if (part.functionCall) {
          const id = part.functionCall.id ?? `call_${callCount++}`;
          openCalls.set(part.functionCall.name, [...(openCalls.get(part.functionCall.name) ?? []), id]);
          toolCalls.push({ id, type: 'function', function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) } });
        } else if (typeof part.text === 'string' && !part.thought) {
          text += part.text;
        }
      }
      const message: Json = { role: 'assistant', content: text || null };
      if (toolCalls.length > 0) message.tool_calls = toolCalls;
      messages.push(message);
      continue;
    }
    const userParts: Json[] = [];
    for (const part of parts) {
      if (part.functionResponse) {
        const queue = openCalls.get(part.functionResponse.name) ?? [];
        const id = part.functionResponse.id ?? queue.shift() ?? `call_${part.functionResponse.name}`;
        messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(part.functionResponse.response ?? {}) });
        continue;
      }
      const converted = convertPart(part);
      if (converted) userParts.push(converted);
    }
    if (userParts.length > 0) messages.push({ role: 'user', content: userParts });
  }

  const body: Json = { model, messages };
  const config = request.generationConfig;
  if (config) {
    if (config.temperature !== undefined && config.temperature !== null) body.temperature = config.temperature;
    if (config.topP !== undefined && config.topP !== null) body.top_p = config.topP;
    if (config.maxOutputTokens !== undefined && config.maxOutputTokens !== null) body.max_tokens = config.maxOutputTokens;
    if (config.stopSequences && config.stopSequences.length > 0) body.stop = config.stopSequences;
    if (config.candidateCount && config.candidateCount > 1) body.n = config.candidateCount;
    if (config.presencePenalty !== undefined && config.presencePenalty !== null) body.presence_penalty = config.presencePenalty;
    if (config.frequencyPenalty !== undefined && config.frequencyPenalty !== null) body.frequency_penalty = config.frequencyPenalty;
    if (config.seed !== undefined && config.seed !== null) body.seed = config.seed;
    if (config.responseMimeType === 'application/json') body.response_format = { type: 'json_object' };
  }
  const declarations = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  if (declarations.length > 0) {
    body.tools = declarations.map((declaration) => ({
      type: 'function',
      function: {
        name: declaration.name,
        description: declaration.description ?? undefined,
        parameters: declaration.parameters ?? declaration.parametersJsonSchema ?? { type: 'object', properties: {} },
      },
    }));
  }
  const calling = request.toolConfig?.functionCallingConfig;
  if (calling?.mode === 'NONE') body.tool_choice = 'none';
  else if (calling?.mode === 'ANY')
    body.tool_choice = calling.allowedFunctionNames?.length === 1 ? { type: 'function', function: { name: calling.allowedFunctionNames[0] } } : 'required';
  else if (calling?.mode === 'AUTO') body.tool_choice = 'auto';
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

function convertPart(part: GeminiPart): Json | undefined {
  if (typeof part.text === 'string') return part.text ? { type: 'text', text: part.text } : undefined;
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    if (mimeType.startsWith('audio/')) return { type: 'input_audio', input_audio: { data, format: mimeType.slice('audio/'.length) } };
    const url = `data:${mimeType};base64,${data}`;
    return mimeType.startsWith('image/') ? { type: 'image_url', image_url: { url } } : { type: 'file', file: { file_data: url } };
  }
  if (part.fileData) return { type: 'image_url', image_url: { url: part.fileData.fileUri } };
  return undefined;
}
