import { optionDefinitions } from '@switchboard/contracts';

/**
 * The most tokens a model may generate in one answer, used to size a request's worst-case cost when
 * the caller sets no limit (see `worstCaseQuota` and the spending guard's claims). The values are the
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

/** DefaultMaxOutputTokens as a fresh database has it: the output limit of a model nobody described. */
export const defaultOutputLimit = Number(optionDefinitions.DefaultMaxOutputTokens.defaultValue);

/** The limits an administrator set per model name (option ModelMaxOutputTokens), and the default for the rest. */
export interface OutputLimitSettings {
  readonly perModel: Readonly<Record<string, number>>;
  readonly fallback: number;
}

/** Looked up per request: remembered per model name (bounded, since callers choose the names); 0 = not known. */
const remembered = new Map<string, number>();
const rememberedLimit = 1_000;

function knownOutputLimit(model: string): number {
  const known = remembered.get(model);
  if (known !== undefined) return known;
  const name = model.toLowerCase();
  let limit = 0;
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

/** The administrator's limit for the model, else the provider's documented one, else the configured default. */
export function modelOutputLimit(model: string, settings: OutputLimitSettings): number {
  const configured = Object.hasOwn(settings.perModel, model) ? settings.perModel[model] : undefined;
  if (typeof configured === 'number' && configured > 0) return configured;
  return knownOutputLimit(model) || settings.fallback;
}
