import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { RelayError } from '../../../core/http/relay-error.ts';

/**
 * How vendors refuse a prompt longer than the model's context: OpenAI's code
 * `context_length_exceeded`, Claude's "prompt is too long", Gemini's "exceeds the maximum number of
 * tokens", and the wording of OpenAI-compatible servers (vLLM, Ollama, DeepSeek …).
 */
const refusalTexts = [
  /prompt is too long/i,
  /maximum context length/i,
  /context[ _-]?(length|window)/i,
  /exceeds the maximum number of tokens/i,
  /too many tokens/i,
];

export function isContextLengthRefusal(error: RelayError): boolean {
  if (error.code === 'context_length_exceeded' || error.code === 'string_above_max_length') return true;
  return error.status === 400 || error.status === 413 ? refusalTexts.some((pattern) => pattern.test(error.message)) : false;
}

/** The larger-context model configured for `model` in `ContextWindowFallbacks`, if any. */
export function contextWindowFallback(options: OptionStore, model: string): string | undefined {
  const configured = options.getJson<Record<string, unknown>>('ContextWindowFallbacks')?.[model];
  return typeof configured === 'string' && configured && configured !== model ? configured : undefined;
}
