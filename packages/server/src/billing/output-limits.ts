/**
 * The most tokens a model may generate in one answer, used to size a request's worst-case cost when
 * the caller sets no limit (see `worstCaseQuota` and the ledger's exposure). The values are the
 * providers' documented maximum output tokens; the first matching name prefix wins, so specific
 * prefixes come before their family. A value below the real limit weakens the overspend bound, a
 * value above it only makes holds near the edge of a balance larger, so doubtful cases round up.
 */
const knownOutputLimits: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['gpt-3.5', 4_096],
  ['gpt-4-turbo', 4_096],
  ['gpt-4-1106', 4_096],
  ['gpt-4-0125', 4_096],
  ['gpt-4-vision', 4_096],
  ['gpt-4-32k', 32_768],
  ['gpt-4o', 16_384],
  ['chatgpt-4o', 16_384],
  ['gpt-4.1', 32_768],
  ['gpt-4.5', 16_384],
  ['gpt-4', 8_192],
  ['gpt-5', 128_000],
  ['o1-mini', 65_536],
  ['o1', 100_000],
  ['o3', 100_000],
  ['o4', 100_000],
  ['claude-3-7-sonnet', 64_000],
  ['claude-3-5', 8_192],
  ['claude-3-', 4_096],
  ['claude-opus-4-5', 64_000],
  ['claude-opus-4-1', 32_000],
  ['claude-opus-4-2025', 32_000],
  ['claude-sonnet-4-5', 64_000],
  ['claude-sonnet-4-2025', 64_000],
  ['claude-haiku-4-5', 64_000],
  ['claude-', 128_000],
  ['gemini-1.5', 8_192],
  ['gemini-2.0', 8_192],
  ['gemini-', 65_536],
  ['deepseek-chat', 8_192],
  ['deepseek', 65_536],
];

/**
 * For models not listed: many OpenAI-compatible models stop at 8K or 32K output tokens; 32K covers
 * most of them without making every hold near the edge of a balance huge.
 */
export const defaultOutputLimit = 32_768;

/** Looked up per request: remembered per model name (bounded, since callers choose the names). */
const remembered = new Map<string, number>();
const rememberedLimit = 1_000;

export function modelOutputLimit(model: string): number {
  const known = remembered.get(model);
  if (known !== undefined) return known;
  const name = model.toLowerCase();
  let limit = defaultOutputLimit;
  for (const [prefix, tokens] of knownOutputLimits) {
    if (name.startsWith(prefix)) {
      limit = tokens;
      break;
    }
  }
  if (remembered.size >= rememberedLimit) remembered.clear();
  remembered.set(model, limit);
  return limit;
}
