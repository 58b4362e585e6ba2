import type { UpstreamError } from '../../provider.ts';
import { tencentEnvelopeSchema } from './tencent-api.ts';

/**
 * Tencent Cloud error codes by what they mean for the channel. Tencent answers every error with
 * HTTP 200 and `Response.Error`, so the transport gives each one the status below and the
 * pipeline's status rules apply.
 * @see https://www.tencentcloud.com/document/product/1284/75543
 */

/** The account cannot pay or the service is not on: the key is useless until someone acts. */
const deadAccountCodes = new Set([
  'ResourceInsufficient.ChargeResourceExhaust',
  'ResourceUnavailable.InArrears',
  'ResourceUnavailable.LowBalance',
  'ResourceUnavailable.NotExist',
  'ResourceUnavailable.StopUsing',
  'FailedOperation.ServiceNotActivated',
  'FailedOperation.ServiceStop',
  'FailedOperation.ServiceStopArrears',
]);

/** A signature too old or from the future says our clock is wrong, not the key. */
const clockSkew = 'AuthFailure.SignatureExpire';

function isDeadKey(code: string): boolean {
  return (code.startsWith('AuthFailure') && code !== clockSkew) || code === 'UnauthorizedOperation' || deadAccountCodes.has(code);
}

function isRateLimit(code: string): boolean {
  return code.startsWith('RequestLimitExceeded') || code.startsWith('LimitExceeded');
}

function isServerSide(code: string): boolean {
  return code.startsWith('InternalError') || code.startsWith('FailedOperation.Engine') || code === 'ResourceUnavailable' || code === 'FailedOperation';
}

/** The HTTP status an error answer is given, so that retry and auto-disable rules see it. */
export function tencentErrorStatus(code: string): number {
  if (deadAccountCodes.has(code)) return 402;
  if (code === 'UnauthorizedOperation' || code === 'AuthFailure.UnauthorizedOperation') return 403;
  if (code.startsWith('AuthFailure')) return 401;
  if (isRateLimit(code)) return 429;
  if (isServerSide(code)) return 500;
  if (code === 'InvalidAction' || code === 'ActionOffline') return 404;
  return 400;
}

/** The error code of an answer that is in fact an error, or undefined for a real answer. */
export function tencentErrorCode(body: unknown): string | undefined {
  const parsed = tencentEnvelopeSchema.safeParse(body);
  const code = parsed.success ? parsed.data.Response?.Error?.Code : undefined;
  return code || undefined;
}

/**
 * Reads `{"Response":{"Error":{"Code","Message"},"RequestId"}}`. Bad credentials and an account in
 * arrears disable the channel; rate limits and engine errors are retried elsewhere; a refused
 * request (bad parameter, unknown model, content moderation) goes back with Tencent's message.
 */
export function parseTencentError(status: number, body: unknown): UpstreamError {
  const parsed = tencentEnvelopeSchema.safeParse(body);
  const error = parsed.success ? parsed.data.Response?.Error : undefined;
  const code = error?.Code ?? '';
  let message = error?.Message ?? '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const disablesChannel = isDeadKey(code);
  const retryable = isRateLimit(code) || isServerSide(code);
  const type = disablesChannel ? 'authentication_error' : isRateLimit(code) ? 'rate_limit_error' : 'upstream_error';
  return { status, message, type, code: code ? `tencent_${code}` : '', disablesChannel, ...(retryable ? { retryable } : {}) };
}
