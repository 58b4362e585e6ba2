import type { UpstreamError } from '../../provider.ts';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const asText = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** Error codes and types by which OpenAI-style vendors say the account itself is unusable. */
const deadAccountCodes = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active', 'insufficient_quota']);
const deadAccountTypes = new Set(['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden']);
/** Lower-case phrases of the same meaning (new-api's AutomaticDisableKeywords defaults). */
export const deadAccountPhrases = [
  'your credit balance is too low',
  'this organization has been disabled',
  'you exceeded your current quota',
  'permission denied',
  'the security token included in the request is invalid',
  'operation not allowed',
  'your account is not authorized',
  'incorrect api key provided',
];

/**
 * Reads an OpenAI-shaped error body (`{"error":{message,type,code}}`, or `{"message"}`, or plain
 * text) and decides whether it means the channel's credentials are dead.
 */
export function parseOpenAIError(status: number, body: unknown): UpstreamError {
  const object = asObject(body);
  const error = asObject(object?.error);
  let message = asText(error?.message) || asText(object?.message) || (typeof object?.error === 'string' ? object.error : '');
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const type = asText(error?.type) || 'upstream_error';
  const code = asText(error?.code) || asText(object?.code);
  const lower = message.toLowerCase();
  const disablesChannel =
    status === 401 || deadAccountCodes.has(code) || deadAccountTypes.has(type) || deadAccountPhrases.some((phrase) => lower.includes(phrase));
  return { status, message, type, code, disablesChannel };
}
