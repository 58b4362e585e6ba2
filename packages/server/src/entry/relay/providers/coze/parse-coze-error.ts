import type { UpstreamError } from '../../provider.ts';
import { cozeEnvelopeSchema } from './coze-api.ts';

/** Codes by which Coze says the token is unusable: invalid (4100), without permission (4101), no balance left (4011, 4019, 4022). */
const deadKeyCodes = new Set([4100, 4101, 4011, 4019, 4022]);
/** Daily or per-minute limits (4008, 4009, 4020): another channel may answer. */
const rateLimitCodes = new Set([4008, 4009, 4020]);
/** The model behind the bot failed, or Coze itself (4013, 5000): worth another channel. */
const serverCodes = new Set([4013, 5000]);

/**
 * The HTTP status a Coze business code stands for. Coze may answer a failure with HTTP 200 and a
 * non-zero `code`; the Coze transport gives such answers this status so the relay treats them as the
 * failures they are.
 * @see https://www.coze.com/open/docs/developer_guides/coze_error_codes
 */
export function statusForCozeCode(code: number): number {
  if (code === 4100) return 401;
  if (code === 4101) return 403;
  if (deadKeyCodes.has(code)) return 402;
  if (rateLimitCodes.has(code)) return 429;
  if (serverCodes.has(code)) return 502;
  return 400;
}

/** Reads `{"code", "msg"}`: dead-key codes (or a 401) disable the channel, rate limits and model failures are retried elsewhere. */
export function parseCozeError(status: number, body: unknown): UpstreamError {
  const parsed = cozeEnvelopeSchema.safeParse(body);
  const envelope = parsed.success ? parsed.data : {};
  let message = envelope.msg || envelope.message || '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const code = typeof envelope.code === 'number' ? envelope.code : 0;
  const retryable = rateLimitCodes.has(code) || serverCodes.has(code) || deadKeyCodes.has(code) ? true : undefined;
  return {
    status,
    message,
    type: 'upstream_error',
    code: code ? String(code) : 'upstream_error',
    disablesChannel: status === 401 || deadKeyCodes.has(code),
    ...(retryable ? { retryable } : {}),
  };
}
