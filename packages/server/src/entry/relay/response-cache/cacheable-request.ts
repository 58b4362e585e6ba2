import type { CapabilityName } from '../provider.ts';
import type { CacheRule } from './cache-rules.ts';

/** Endpoints whose answers are cached: text and vectors, never pictures, audio or moderation verdicts. */
const cachedCapabilities: ReadonlySet<CapabilityName> = new Set(['chat', 'completions', 'embeddings', 'responses']);

export function isCachedCapability(capability: CapabilityName): boolean {
  return cachedCapabilities.has(capability);
}

function hasEntries(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : typeof value === 'object' && value !== null;
}

/** A turn that offers tools or carries their results: its answer may depend on tool state. */
function usesTools(body: Record<string, unknown>): boolean {
  if (hasEntries(body.tools) || hasEntries(body.functions)) return true;
  const turns = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  return turns.some((turn) => {
    if (typeof turn !== 'object' || turn === null) return false;
    const entry = turn as Record<string, unknown>;
    return entry.role === 'tool' || entry.role === 'function' || entry.type === 'function_call_output' || hasEntries(entry.tool_calls);
  });
}

/** Several sampled choices (OpenAI `n`, Gemini `candidateCount` converted to `n`). */
function samplesSeveral(body: Record<string, unknown>): boolean {
  return typeof body.n === 'number' && body.n > 1;
}

/** Whether this rule lets this body be cached: tool turns and `n > 1` only when the rule says so. */
export function ruleAllows(rule: CacheRule, body: Record<string, unknown>): boolean {
  if (!rule.tools && usesTools(body)) return false;
  return rule.n || !samplesSeveral(body);
}
