import type { UpstreamError } from '../../provider.ts';
import { parseClaudeError } from '../claude/parse-claude-error.ts';

type Json = Record<string, unknown>;

/** Exceptions by which AWS says the credentials themselves are unusable. */
const deadCredentialTypes = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'AccessDeniedException',
  'ExpiredTokenException',
  'IncompleteSignature',
  'MissingAuthenticationTokenException',
]);

/**
 * Bedrock errors arrive as `{"message"}` with the exception name in `x-amzn-ErrorType`; the
 * transport folds that name into the body as `__type`. Claude-shaped bodies (model errors passed
 * through) are read as Claude's.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors
 */
export function parseBedrockError(status: number, body: unknown): UpstreamError {
  const object = body !== null && typeof body === 'object' ? (body as Json) : undefined;
  if (object && object.type === 'error') return parseClaudeError(status, body);
  const type = typeof object?.__type === 'string' ? object.__type.split(':')[0] || 'upstream_error' : 'upstream_error';
  const rawMessage = object?.message ?? object?.Message;
  const message =
    typeof rawMessage === 'string' && rawMessage
      ? rawMessage
      : typeof body === 'string' && body.trim()
        ? body.trim().slice(0, 500)
        : `upstream status code ${status}`;
  return { status, message, type, code: type, disablesChannel: status === 401 || deadCredentialTypes.has(type) };
}
