import type { UpstreamError } from '../../provider.ts';
import { deadAccountPhrases } from '../openai-compatible/openai-error.ts';
import { cohereErrorSchema } from './cohere-api.ts';

/**
 * Reads `{"message": "..."}`. 401 (invalid API token) and 402 (no payment method on the account) mark
 * the channel's key as dead; 429 (trial or production rate limit) is retried on another channel.
 * @see https://docs.cohere.com/reference/errors
 */
export function parseCohereError(status: number, body: unknown): UpstreamError {
  const parsed = cohereErrorSchema.safeParse(body);
  let message = parsed.success ? (parsed.data.message ?? '') : '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const lower = message.toLowerCase();
  const disablesChannel = status === 401 || status === 402 || deadAccountPhrases.some((phrase) => lower.includes(phrase));
  const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : 'upstream_error';
  return { status, message, type, code: type, disablesChannel, ...(status === 429 ? { retryable: true } : {}) };
}
