import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { NativeAnswer, NativeStreamUsage, NormalizedUsage } from '../../provider.ts';
import { claudeUsageSchema, type ClaudeUsage } from './claude-api.ts';
import { normalizeClaudeUsage } from './convert-usage.ts';

/**
 * Anthropic Messages answers for Anthropic-format callers: forwarded as Anthropic wrote them, with
 * usage read from `usage` (complete answers) or from `message_start` and `message_delta` (streams:
 * the only events parsed). The model is renamed in `message_start` and a complete answer only, when
 * the channel's model mapping changed it.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */

/** `message_start` or `message_delta`: the stream events that carry usage. */
const usageEvent = /"type"\s*:\s*"message_(?:start|delta)"/;
const startEvent = /"type"\s*:\s*"message_start"/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function usageFields(value: unknown): ClaudeUsage | undefined {
  const parsed = claudeUsageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const tokens = (value: unknown): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/**
 * Server-side compaction runs as an extra iteration whose tokens the top-level counts leave out
 * (they count the message iterations only); Anthropic bills the sum over all iterations, so the
 * compaction iterations are added here.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/compaction
 */
function withCompaction(usage: ClaudeUsage): ClaudeUsage {
  const iterations = Array.isArray(usage.iterations) ? (usage.iterations as unknown[]) : [];
  const compactions = iterations.filter((iteration): iteration is Record<string, unknown> => isObject(iteration) && iteration.type === 'compaction');
  if (compactions.length === 0) return usage;
  const sum = (field: 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens') =>
    compactions.reduce((total, iteration) => total + tokens(iteration[field]), tokens(usage[field]));
  const cacheWrites = sum('cache_creation_input_tokens');
  return {
    ...usage,
    input_tokens: sum('input_tokens'),
    output_tokens: sum('output_tokens'),
    cache_read_input_tokens: sum('cache_read_input_tokens'),
    cache_creation_input_tokens: cacheWrites,
    // When compaction wrote to the cache, the TTL split no longer adds up: the total is billed at the 5-minute ratio.
    cache_creation: cacheWrites === tokens(usage.cache_creation_input_tokens) ? usage.cache_creation : undefined,
  };
}

/** Anthropic's usage → the relay's, with compaction iterations and the web searches the answer ran. */
export function billedClaudeUsage(usage: ClaudeUsage): NormalizedUsage {
  const normalized = normalizeClaudeUsage(withCompaction(usage));
  const requested = usage.server_tool_use?.web_search_requests;
  const searches = typeof requested === 'number' && requested > 0 ? Math.floor(requested) : 0;
  return searches > 0 ? { ...normalized, webSearchRequests: searches } : normalized;
}

/** Later counts replace earlier ones (message_delta's are cumulative); fields it does not name stay. */
function mergeUsage(into: Record<string, unknown>, next: ClaudeUsage): void {
  for (const [field, value] of Object.entries(next)) if (value !== null && value !== undefined) into[field] = value;
}

function createStreamUsage(): NativeStreamUsage {
  const merged: Record<string, unknown> = {};
  let seen = false;
  return {
    push(data) {
      if (!usageEvent.test(data)) return;
      const parsed = safeParseJson(data);
      if (!parsed.ok || !isObject(parsed.value)) return;
      const event = parsed.value;
      const usage = usageFields(event.type === 'message_start' && isObject(event.message) ? event.message.usage : event.usage);
      if (!usage) return;
      mergeUsage(merged, usage);
      seen = true;
    },
    get seen() {
      return seen;
    },
    usage: () => (seen ? billedClaudeUsage(merged as ClaudeUsage) : undefined),
  };
}

/** The text of content blocks, or of one stream event's delta or opening block. */
function textOf(value: unknown): string {
  if (!isObject(value)) return '';
  const blocks = Array.isArray(value.content) ? value.content : [value.content_block, value.delta];
  let text = '';
  for (const block of blocks) {
    if (!isObject(block)) continue;
    for (const field of ['text', 'thinking', 'partial_json'] as const) if (typeof block[field] === 'string') text += block[field];
    if (block.type === 'tool_use' && block.input !== undefined && Array.isArray(value.content)) text += JSON.stringify(block.input);
  }
  return text;
}

function withCallerModel(value: unknown, model: string): unknown {
  if (!isObject(value)) return undefined;
  if (typeof value.model === 'string') return { ...value, model };
  if (value.type === 'message_start' && isObject(value.message)) return { ...value, message: { ...value.message, model } };
  return undefined;
}

export const claudeNativeAnswer: NativeAnswer = {
  dialect: 'anthropic',
  usageOf(body) {
    const usage = isObject(body) ? usageFields(body.usage) : undefined;
    return usage ? billedClaudeUsage(usage) : undefined;
  },
  textOf,
  createStreamUsage,
  withCallerModel,
  namesModel: (data) => startEvent.test(data),
  streamError: (reason, message) => ({
    event: 'error',
    data: JSON.stringify({ type: 'error', error: { type: reason === 'sensitive' ? 'invalid_request_error' : 'api_error', message } }),
  }),
};

/** For `EndpointCapability.nativeAnswer` of every Claude transport (Anthropic, Bedrock, Vertex). */
export function claudeNativeFor(dialect: string): NativeAnswer | undefined {
  return dialect === 'anthropic' ? claudeNativeAnswer : undefined;
}
