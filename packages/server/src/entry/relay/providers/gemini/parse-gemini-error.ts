import type { UpstreamError } from '../../provider.ts';
import { deadAccountPhrases } from '../openai-compatible/openai-error.ts';
import { geminiErrorSchema } from './gemini-api.ts';

/** ErrorInfo reasons by which Google says the key itself is unusable. */
const deadKeyReasons = new Set(['API_KEY_INVALID', 'API_KEY_SERVICE_BLOCKED', 'CONSUMER_SUSPENDED', 'SERVICE_DISABLED']);

/**
 * Reads `{"error":{"code","message","status","details"}}`. An invalid key is a 400 whose details
 * carry reason API_KEY_INVALID; 401/403 (UNAUTHENTICATED, PERMISSION_DENIED) also kill the key.
 * RESOURCE_EXHAUSTED (429) is left to the pipeline's retry rules.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export function parseGeminiError(status: number, body: unknown): UpstreamError {
  const parsed = geminiErrorSchema.safeParse(Array.isArray(body) ? body[0] : body);
  const error = parsed.success ? parsed.data.error : undefined;
  let message = error?.message ?? '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const type = error?.status ?? 'upstream_error';
  const reasons = (error?.details ?? []).map((detail) => detail.reason ?? '');
  const lower = message.toLowerCase();
  const disablesChannel =
    status === 401 ||
    status === 403 ||
    reasons.some((reason) => deadKeyReasons.has(reason)) ||
    lower.includes('api key not valid') ||
    deadAccountPhrases.some((phrase) => lower.includes(phrase));
  // A dead key is the channel's fault, not the request's: another channel may well answer it.
  return disablesChannel
    ? { status, message, type, code: reasons.find(Boolean) ?? type, disablesChannel, retryable: true }
    : { status, message, type, code: reasons.find(Boolean) ?? type, disablesChannel };
}
