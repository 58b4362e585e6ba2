import type { UpstreamError } from '../../provider.ts';
import { baiduErrorSchema } from './baidu-api.ts';

/**
 * Baidu's error codes by what they mean for the channel. Baidu answers every error with HTTP 200,
 * so the transport gives each one the status below and the pipeline's status rules apply.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/tlmyncueh
 */
export const baiduErrorCodes = {
  /** The access token is unknown or expired: fetch a new one and try once more. */
  staleToken: new Set([110, 111]),
  /** IAM authentication failed, app does not exist, the account's total call quota is used up. */
  deadCredentials: new Set([14, 15, 19]),
  /** Cluster limit, daily limit, QPS limit, RPM and TPM limits: another channel may answer. */
  rateLimited: new Set([4, 17, 18, 336501, 336502]),
  /** Unknown error, service unavailable, internal error, server overloaded. */
  serverSide: new Set([1, 2, 13, 336000, 336100]),
  /** The account or app may not call this model (the app lacks the interface): not the key's fault. */
  forbidden: new Set([6, 336004]),
} as const;

/** The HTTP status an error answer is given, so that retry and auto-disable rules see it. */
export function baiduErrorStatus(code: number): number {
  if (baiduErrorCodes.staleToken.has(code) || baiduErrorCodes.deadCredentials.has(code)) return 401;
  if (baiduErrorCodes.rateLimited.has(code)) return 429;
  if (baiduErrorCodes.forbidden.has(code)) return 403;
  if (code === 336005) return 404;
  if (baiduErrorCodes.serverSide.has(code)) return code === 336100 ? 503 : 500;
  return 400;
}

/** The `error_code` of a 200 answer that is in fact an error, or undefined for a real answer. */
export function baiduErrorCode(body: unknown): number | undefined {
  const parsed = baiduErrorSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const code = Number(parsed.data.error_code);
  return Number.isInteger(code) && code !== 0 ? code : undefined;
}

/**
 * Reads `{"error_code","error_msg"}` (a call) or `{"error","error_description"}` (the token
 * exchange). Bad credentials disable the channel; a limit or a server error is retried elsewhere;
 * a refused request (invalid argument, input too long, unsafe content) is the caller's, with
 * Baidu's own message.
 */
export function parseBaiduError(status: number, body: unknown): UpstreamError {
  const parsed = baiduErrorSchema.safeParse(body);
  const error = parsed.success ? parsed.data : {};
  const code = Number(error.error_code);
  let message = error.error_msg ?? error.error_description ?? '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const oauthRefusal = error.error === 'invalid_client';
  const disablesChannel = oauthRefusal || baiduErrorCodes.staleToken.has(code) || baiduErrorCodes.deadCredentials.has(code);
  const retryable = baiduErrorCodes.rateLimited.has(code) || baiduErrorCodes.serverSide.has(code) || baiduErrorCodes.forbidden.has(code);
  const type = oauthRefusal || disablesChannel ? 'authentication_error' : retryable && status === 429 ? 'rate_limit_error' : 'upstream_error';
  const codeText = error.error_code !== undefined && error.error_code !== null ? String(error.error_code) : (error.error ?? '');
  return { status, message, type, code: codeText ? `baidu_${codeText}` : '', disablesChannel, ...(retryable ? { retryable } : {}) };
}
