import type { UpstreamError } from '../../provider.ts';
import { difyErrorSchema } from './dify-api.ts';

/**
 * Codes by which Dify says the app itself cannot answer any request: its model provider has no
 * credentials or no quota left, or the app is unpublished or misconfigured.
 */
const deadAppCodes = new Set(['provider_not_initialize', 'provider_quota_exceeded', 'app_unavailable']);

/**
 * Reads `{"status", "code", "message"}`. 401 (an invalid app key) and the dead-app codes disable the
 * channel (a dead app's 400 is retried elsewhere); 429 (the app's rate limit) is left to the pipeline, which retries it elsewhere.
 * @see https://docs.dify.ai/en/openapi-api-access-readme (errors of chat-messages and files/upload)
 */
export function parseDifyError(status: number, body: unknown): UpstreamError {
  const parsed = difyErrorSchema.safeParse(body);
  const error = parsed.success ? parsed.data : {};
  let message = error.message ?? '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const code = error.code ?? 'upstream_error';
  // A dead app answers 400, which is otherwise the caller's fault: another channel may well answer.
  const deadApp = deadAppCodes.has(code);
  return { status, message, type: code, code, disablesChannel: status === 401 || deadApp, ...(deadApp ? { retryable: true } : {}) };
}
