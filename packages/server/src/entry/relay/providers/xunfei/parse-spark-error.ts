import type { UpstreamError } from '../../provider.ts';
import { sparkFrameSchema } from './spark-api.ts';
import { classifySparkCode } from './spark-error-codes.ts';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);

/**
 * Reads the two ways iFlytek refuses: an error frame after the handshake (`header.code`, classified
 * by spark-error-codes), or a refused handshake (`{"message": …}` with 401 for a key or signature
 * that does not match, 403 for a date too far from iFlytek's clock or an IP outside the whitelist).
 * A clock off by more than five minutes is ours to fix, not the key's, so only 401 and the IP
 * whitelist disable the channel.
 * @see https://www.xfyun.cn/doc/spark/general_url_authentication.html
 */
export function parseSparkError(status: number, body: unknown): UpstreamError {
  const frame = sparkFrameSchema.safeParse(body);
  const code = frame.success ? (frame.data.header?.code ?? 0) : 0;
  if (frame.success && code !== 0) {
    const meaning = classifySparkCode(code);
    const message = frame.data.header?.message || `iFlytek Spark error ${code}`;
    return { status, message, type: meaning.type, code: String(code), retryable: meaning.retryable, disablesChannel: meaning.disablesChannel };
  }
  const object = asObject(body);
  let message = typeof object?.message === 'string' ? object.message : '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const refusedIp = /ip address is not allowed/i.test(message);
  const type = status === 401 || status === 403 ? 'authentication_error' : 'upstream_error';
  return { status, message, type, code: '', disablesChannel: status === 401 || refusedIp };
}
