import { chatPath, type Target } from './target.ts';

/**
 * The native same-format paths (issue 35): an Anthropic caller at `/v1/messages` on a Claude channel and a
 * Gemini caller at `generateContent` on a Gemini channel get the vendor's answer untouched. Each has its own
 * bench model, served only by that vendor's channel (switchboard-seed.ts), so the OpenAI rows never reach it.
 */
export const nativeModels = { claude: 'bench-native-claude', gemini: 'bench-native-gemini' } as const;

export type NativeVendor = keyof typeof nativeModels;

/** The prompt of chatBody, so the three formats send the same request. */
const prompt = 'Say hello to the benchmark.';

/** The Anthropic Messages request, as the anthropic SDK sends it. */
export function claudeMessagesBody(): string {
  return JSON.stringify({ model: nativeModels.claude, max_tokens: 32, messages: [{ role: 'user', content: prompt }] });
}

/** The Gemini generateContent request (the model is in the path). */
export function geminiGenerateBody(): string {
  return JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig: { maxOutputTokens: 32 } });
}

/**
 * The same gateway, called as the vendor's own client calls it: the vendor's route, auth header and body.
 * The gateway key is the caller's `sk-…` key, sent where each vendor's SDK puts its key.
 */
export function nativeTarget<T extends Target>(target: T, vendor: NativeVendor, apiKey: string): T {
  if (vendor === 'claude')
    return { ...target, path: '/v1/messages', headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' }, body: claudeMessagesBody() };
  return {
    ...target,
    path: `/v1beta/models/${nativeModels.gemini}:generateContent`,
    headers: { 'x-goog-api-key': apiKey },
    body: geminiGenerateBody(),
  };
}

/** The target back on the OpenAI chat path with a bearer key (the clean reconciliation traffic). */
export function chatTarget<T extends Target>(target: T, apiKey: string): T {
  return { ...target, path: chatPath, headers: { authorization: `Bearer ${apiKey}` }, body: undefined };
}
