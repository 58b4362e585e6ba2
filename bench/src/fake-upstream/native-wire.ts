/**
 * The vendors' own answer shapes for the native paths (issue 35: a caller in the channel's format gets the
 * vendor's bytes), modelled on the recorded answers in packages/server/src/entry/relay/conformance/recorded/
 * (anthropic-text.json, google-reasoning.json) with the bench's usage in place of the recorded one.
 */

/** Claude's Messages API answer (`POST /v1/messages`, non-stream); `input_tokens` / `output_tokens` are what is billed. */
export function claudeMessageBody(id: string, model: string, inputTokens: number, outputTokens: number): string {
  return JSON.stringify({
    model,
    id,
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: 'Hello! How can I help you today?' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: outputTokens,
      service_tier: 'standard',
      inference_geo: 'not_available',
    },
  });
}

/** Gemini's generateContent answer; `promptTokenCount` / `candidatesTokenCount` are what is billed (no thoughts). */
export function geminiGenerateBody(responseId: string, model: string, promptTokens: number, candidatesTokens: number): string {
  return JSON.stringify({
    candidates: [{ content: { parts: [{ text: 'Hello! How can I help you today?' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: promptTokens,
      candidatesTokenCount: candidatesTokens,
      totalTokenCount: promptTokens + candidatesTokens,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
    },
    modelVersion: model,
    responseId,
  });
}

/** `/v1beta/models/{model}:generateContent` → the model; undefined for any other path. */
export function geminiGenerateModel(url: string): string | undefined {
  const match = /^\/v1beta\/models\/([^/:?]+):generateContent(?:\?|$)/.exec(url);
  return match ? decodeURIComponent(match[1]!) : undefined;
}
