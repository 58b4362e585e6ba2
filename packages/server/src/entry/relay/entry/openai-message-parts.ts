/**
 * The answer text and the reasoning of one OpenAI-format message or stream delta, whatever dialect
 * of OpenAI's format the channel speaks. The entry formats (Anthropic, Gemini) render these two
 * strings; an OpenAI caller gets the upstream's bytes untouched, so none of this runs on its path.
 *
 * - `reasoning_content` (DeepSeek, Qwen, Moonshot…), `reasoning` (Groq, OpenRouter, vLLM) hold the
 *   reasoning as a string.
 * - Mistral's reasoning models answer `content` as an array of chunks:
 *   `[{type:"thinking", thinking:[{type:"text", text}]}, {type:"text", text}]`.
 * @see https://docs.mistral.ai/capabilities/reasoning/
 * @see https://console.groq.com/docs/reasoning
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens
 */
export interface MessageParts {
  readonly text: string;
  readonly reasoning: string;
}

type Json = Record<string, unknown>;

const noParts: MessageParts = { text: '', reasoning: '' };

function textOfChunks(chunks: unknown): string {
  if (typeof chunks === 'string') return chunks;
  if (!Array.isArray(chunks)) return '';
  let text = '';
  for (const chunk of chunks as (Json | null)[]) if (typeof chunk?.text === 'string') text += chunk.text;
  return text;
}

export function messageParts(message: unknown): MessageParts {
  if (message === null || typeof message !== 'object') return noParts;
  const { content, reasoning_content: reasoningContent, reasoning } = message as Json;
  let text = '';
  let thought = typeof reasoningContent === 'string' && reasoningContent ? reasoningContent : typeof reasoning === 'string' ? reasoning : '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    for (const chunk of content as (Json | null)[]) {
      if (chunk?.type === 'thinking') thought += textOfChunks(chunk.thinking);
      else if (chunk?.type === 'text' && typeof chunk.text === 'string') text += chunk.text;
    }
  }
  return text || thought ? { text, reasoning: thought } : noParts;
}
