/**
 * Gemini's thought signatures on OpenAI tool calls. A `functionCall` part of a thinking model carries
 * an opaque `thoughtSignature` that must come back on that part in the next request (Gemini 3
 * refuses multi-turn function calling without it). OpenAI's format has no place for it, so it rides
 * on the tool call the way Google's own OpenAI-compatible endpoint carries it:
 * `tool_calls[i].extra_content.google.thought_signature`.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */

export interface GoogleExtraContent {
  google: { thought_signature: string };
}

/** The field to add to an OpenAI tool call (none when the part had no signature). */
export function thoughtSignatureField(signature: string | null | undefined): { extra_content?: GoogleExtraContent } {
  return signature ? { extra_content: { google: { thought_signature: signature } } } : {};
}

/** The signature an OpenAI tool call (or tool-call delta) carries, if any. */
export function readThoughtSignature(toolCall: unknown): string | undefined {
  if (toolCall === null || typeof toolCall !== 'object') return undefined;
  const extra = (toolCall as { extra_content?: unknown }).extra_content;
  if (extra === null || typeof extra !== 'object') return undefined;
  const google = (extra as { google?: unknown }).google;
  if (google === null || typeof google !== 'object') return undefined;
  const signature = (google as { thought_signature?: unknown }).thought_signature;
  return typeof signature === 'string' && signature ? signature : undefined;
}
