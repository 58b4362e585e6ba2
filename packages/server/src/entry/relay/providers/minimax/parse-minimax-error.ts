import type { UpstreamError } from '../../provider.ts';
import { parseOpenAIError } from '../openai-compatible/openai-error.ts';
import { minimaxStatusSchema } from './minimax-api.ts';

/**
 * MiniMax `base_resp.status_code` values, by what the relay must do about them.
 * @see https://platform.minimax.io/docs/api-reference/errorcode
 */
/** 1004 "not authorized / token not match group", 2049 "invalid api key". */
const authenticationCodes = new Set([1004, 2049]);
/** 1008 "insufficient balance": the account cannot pay for anything. */
const noBalanceCode = 1008;
/** 1002 "rate limit" (requests), 1039 "token limit" (tokens per minute): another channel may answer. */
const rateLimitCodes = new Set([1002, 1039]);
/** 1026 "input new_sensitive", 1027 "output new_sensitive": the content was refused. */
const contentCodes = new Set([1026, 1027]);
/** 1000 unknown error, 1001 timeout, 1024 internal error, 1033 system error: worth another channel. */
const transientCodes = new Set([1000, 1001, 1024, 1033]);

/** The HTTP status a `status_code` stands for, for failures MiniMax reports with HTTP 200. */
export function statusForMinimaxCode(code: number): number {
  if (authenticationCodes.has(code)) return 401;
  if (code === noBalanceCode) return 402;
  if (rateLimitCodes.has(code)) return 429;
  if (transientCodes.has(code)) return 500;
  return 400;
}

/** Reads `base_resp` (or, for HTTP-level failures without one, an OpenAI-shaped error) into a typed error. */
export function parseMinimaxError(status: number, body: unknown): UpstreamError {
  const parsed = minimaxStatusSchema.safeParse(body);
  const baseResp = parsed.success ? parsed.data.base_resp : undefined;
  const code = baseResp?.status_code;
  if (typeof code !== 'number' || code === 0) return parseOpenAIError(status, body);
  const message = baseResp?.status_msg || `MiniMax status code ${code}`;
  const codeText = String(code);
  if (authenticationCodes.has(code)) return { status, message, type: 'authentication_error', code: codeText, disablesChannel: true };
  if (code === noBalanceCode) return { status, message, type: 'insufficient_quota', code: codeText, disablesChannel: true };
  if (rateLimitCodes.has(code)) return { status, message, type: 'rate_limit_error', code: codeText, retryable: true, disablesChannel: false };
  if (contentCodes.has(code)) return { status, message, type: 'content_policy_violation', code: codeText, retryable: false, disablesChannel: false };
  if (transientCodes.has(code)) return { status, message, type: 'upstream_error', code: codeText, retryable: true, disablesChannel: false };
  return { status, message, type: 'invalid_request_error', code: codeText, retryable: false, disablesChannel: false };
}
