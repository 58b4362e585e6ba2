import type { OptionStore } from '../../../domain/options/option-store.ts';

/** `{"gpt-5": ["gpt-5-mini", "claude-sonnet-4"]}`: each model's alternatives, in the order tried. */
export type FallbackMap = Readonly<Record<string, readonly string[]>>;

export type FallbacksRead = { readonly ok: true; readonly map: FallbackMap } | { readonly ok: false; readonly selfReference?: string };

/** Reads a fallback map (the `ModelFallbacks` option or a token's override); refuses a model that falls back to itself. */
export function readFallbackMap(json: unknown): FallbacksRead {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false };
  const map: Record<string, string[]> = {};
  for (const [model, alternatives] of Object.entries(json)) {
    if (!model.trim() || !Array.isArray(alternatives) || alternatives.length === 0) return { ok: false };
    if (!alternatives.every((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')) return { ok: false };
    if (alternatives.includes(model)) return { ok: false, selfReference: model };
    map[model] = alternatives;
  }
  return { ok: true, map };
}

/**
 * The models a request tries in order: the one asked for, then its alternatives (the token's own
 * map when it has one for this model, else `ModelFallbacks`), each once.
 */
export function modelChain(options: OptionStore, model: string, tokenOverride: FallbackMap | undefined): string[] {
  const configured = tokenOverride?.[model] ?? readFallbackMapOption(options)[model];
  // Most models have no alternatives: one small array, no set.
  if (!configured) return [model];
  return [...new Set([model, ...configured])];
}

/** The `ModelFallbacks` option read once per value: the option store keeps one parsed object until it changes. */
const optionMaps = new WeakMap<object, FallbackMap>();
const noFallbacks: FallbackMap = {};

function readFallbackMapOption(options: OptionStore): FallbackMap {
  const json = options.getJson<unknown>('ModelFallbacks');
  if (typeof json !== 'object' || json === null) return noFallbacks;
  let map = optionMaps.get(json);
  if (!map) {
    const read = readFallbackMap(json);
    map = read.ok ? read.map : noFallbacks;
    optionMaps.set(json, map);
  }
  return map;
}
