import type { UpstreamError } from '../../provider.ts';
import { parseOpenAIError } from '../openai-compatible/openai-error.ts';
import { cloudflareEnvelopeSchema } from './cloudflare-api.ts';

/**
 * Codes by which Cloudflare says the channel's token or account cannot serve: an invalid or
 * unauthorised token (10000), a blocked account (3023), the daily free allocation used up (3036).
 */
const deadAccountCodes = new Set([10000, 3023, 3036]);

function typeFor(status: number, codes: readonly number[]): string {
  if (codes.includes(10000)) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'upstream_error' : 'invalid_request_error';
}

/**
 * Reads Cloudflare's error envelope (`{success: false, errors: [{code, message}]}`); bodies in
 * OpenAI's error shape, which the compatible endpoints also send, go to the OpenAI reader. 429s
 * (out of capacity, 3040) are left to the status rules, which retry them on another channel.
 * @see https://developers.cloudflare.com/workers-ai/platform/errors/
 */
export function parseCloudflareError(status: number, body: unknown): UpstreamError {
  const envelope = cloudflareEnvelopeSchema.safeParse(body);
  const errors = envelope.success ? (envelope.data.errors ?? []) : [];
  if (errors.length === 0) return parseOpenAIError(status, body);
  const codes = errors.map((error) => error.code ?? 0);
  const message = errors.map((error) => error.message || `Cloudflare error ${error.code ?? ''}`.trim()).join('; ');
  return {
    status,
    message,
    type: typeFor(status, codes),
    code: String(codes[0] ?? ''),
    disablesChannel: status === 401 || codes.some((code) => deadAccountCodes.has(code)),
  };
}
