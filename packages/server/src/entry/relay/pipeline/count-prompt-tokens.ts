import { countTokensMessages } from './count-tokens.messages.ts';
import type { RelayEndpoint } from './relay-endpoints.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import { readRelayBody } from './request-reader.ts';
import { countTextTokens } from './token-estimate.ts';

/** About a million tokens, past every model's context window: larger prompts are refused, not counted. */
export const maxCountedCharacters = 4_000_000;
/** Tokenized in one go: about 2 ms of the event loop. */
const sliceLength = 8_192;
const chatEndpoint: RelayEndpoint = { path: '/v1/chat/completions', capability: 'chat', body: 'json', stream: 'none' };
const letterOrDigit = /[\p{L}\p{N}]/u;

/**
 * Where the slice from `start` ends: after a line end followed by a letter or digit, a place the
 * tokenizer's pre-split always cuts (so the slices' counts add up to the whole text's), else at
 * the length limit (a token may then be counted as two).
 */
function sliceEnd(text: string, start: number): number {
  const limit = start + sliceLength;
  if (limit >= text.length) return text.length;
  for (let newline = text.lastIndexOf('\n', limit - 1); newline > start; newline = text.lastIndexOf('\n', newline - 1)) {
    if (letterOrDigit.test(text.charAt(newline + 1))) return newline + 1;
  }
  return limit;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The prompt tokens of an OpenAI chat request (an Anthropic or Gemini request once converted),
 * counted as the relay counts a prompt when the upstream reports no usage: o200k_base over the
 * same prompt text. Nothing is billed and no upstream is called. A long prompt is tokenized in
 * slices with a turn of the event loop between them, so a count never stalls the streams the relay
 * is serving (a 100,000-token prompt takes about 100 ms of CPU).
 */
export async function countPromptTokens(openAIBody: Record<string, unknown>): Promise<number> {
  const { promptText } = readRelayBody(chatEndpoint, Buffer.alloc(0), openAIBody, 'application/json');
  if (promptText.length > maxCountedCharacters)
    throw new RelayError(400, 'prompt_too_long', countTokensMessages.promptTooLong, { params: { max: maxCountedCharacters }, type: 'invalid_request_error' });
  let total = 0;
  for (let start = 0; start < promptText.length;) {
    if (start > 0) await nextTurn();
    const end = sliceEnd(promptText, start);
    total += countTextTokens(promptText.slice(start, end));
    start = end;
  }
  return total;
}
