import type { UpstreamError } from '../../provider.ts';
import { zhipuResponseSchema } from './zhipu-api.ts';

/**
 * Zhipu's business codes, by what the relay must do about them.
 * @see https://docs.z.ai/api-reference/api-code (the same codes as open.bigmodel.cn's 错误码 page)
 */
/** 1000–1004: the token (so the key it was signed with) is refused. */
const authenticationCodes = new Set([1000, 1001, 1002, 1003, 1004]);
/** The account cannot be used: inactive, missing, locked, in arrears, locked for irregular activity. */
const deadAccountCodes = new Set([1110, 1111, 1112, 1113, 1121]);
/** Concurrency, frequency, daily limit and "too many requests": another channel may answer. */
const rateLimitCodes = new Set([1302, 1303, 1304, 1305]);
/** "Unsafe or sensitive content in the input or the generation": the caller must see why. */
const contentPolicyCode = 1301;

/**
 * The HTTP status a business code stands for, for answers that report a failure with HTTP 200 and
 * `success: false` (new-api checks `success` on every 200 answer for that reason).
 */
export function statusForZhipuCode(code: number | null | undefined): number {
  if (code === null || code === undefined) return 500;
  if (authenticationCodes.has(code)) return 401;
  if (deadAccountCodes.has(code)) return 403;
  if (rateLimitCodes.has(code)) return 429;
  if (code >= 1200 && code < 1400) return 400;
  return 500;
}

/** Reads `{"code","msg","success":false}` (or plain text) into a typed error. */
export function parseZhipuError(status: number, body: unknown): UpstreamError {
  const parsed = zhipuResponseSchema.safeParse(body);
  const code = parsed.success ? parsed.data.code : undefined;
  let message = parsed.success ? (parsed.data.msg ?? '') : '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const codeText = typeof code === 'number' ? String(code) : '';
  if (typeof code === 'number' && authenticationCodes.has(code))
    return { status, message, type: 'authentication_error', code: codeText, disablesChannel: true };
  if (typeof code === 'number' && deadAccountCodes.has(code)) return { status, message, type: 'account_error', code: codeText, disablesChannel: true };
  if (typeof code === 'number' && rateLimitCodes.has(code))
    return { status, message, type: 'rate_limit_error', code: codeText, retryable: true, disablesChannel: false };
  if (code === contentPolicyCode) return { status, message, type: 'content_policy_violation', code: codeText, retryable: false, disablesChannel: false };
  return { status, message, type: 'upstream_error', code: codeText, disablesChannel: status === 401 };
}
