import type { UpstreamError } from '../../provider.ts';
import { deadAccountPhrases } from '../openai-compatible/openai-error.ts';
import { claudeErrorSchema } from './claude-api.ts';

/** Error types by which Anthropic says the key itself is unusable. */
const deadKeyTypes = new Set(['authentication_error', 'permission_error', 'billing_error']);

/**
 * Reads `{"type":"error","error":{"type","message"}}`. 401/403 and the billing wording ("Your credit
 * balance is too low", sent as a 400) mark the channel's key as dead; 429 and 529 (overloaded) are
 * left to the pipeline's status rules, which retry them on another channel.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function parseClaudeError(status: number, body: unknown): UpstreamError {
  const parsed = claudeErrorSchema.safeParse(body);
  const error = parsed.success ? parsed.data.error : undefined;
  let message = error?.message ?? '';
  if (!message) message = typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `upstream status code ${status}`;
  const type = error?.type ?? 'upstream_error';
  const lower = message.toLowerCase();
  const disablesChannel = status === 401 || deadKeyTypes.has(type) || deadAccountPhrases.some((phrase) => lower.includes(phrase));
  return { status, message, type, code: type, disablesChannel };
}
