import { toolPrice } from './tool-prices.ts';

/**
 * new-api's price formulas (model and completion ratios, group ratio, fixed per-call prices), as pure functions of the price
 * tables. 500,000 quota units are one US dollar; model ratio 1 is US$2 per million prompt tokens.
 */

export interface PriceTables {
  readonly modelRatio: Readonly<Record<string, number>>;
  readonly completionRatio: Readonly<Record<string, number>>;
  readonly modelPrice: Readonly<Record<string, number>>;
  readonly cacheRatio: Readonly<Record<string, number>>;
  readonly createCacheRatio: Readonly<Record<string, number>>;
  readonly audioRatio: Readonly<Record<string, number>>;
  readonly audioCompletionRatio: Readonly<Record<string, number>>;
  readonly groupRatio: Readonly<Record<string, number>>;
  /** userGroup → usingGroup → ratio; overrides GroupRatio for that pair. */
  readonly groupGroupRatio: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** The operator's tool prices, US dollars per 1,000 calls (see tool-prices.ts). */
  readonly toolPrices: Readonly<Record<string, number>>;
  readonly quotaPerUnit: number;
}

/** Everything needed to charge one request of one model in one group (and logged in `other`). */
export interface ModelPricing {
  /** Per call (ModelPrice) instead of per token. */
  readonly usePrice: boolean;
  readonly modelPrice: number;
  readonly modelRatio: number;
  readonly completionRatio: number;
  readonly cacheRatio: number;
  readonly cacheCreationRatio: number;
  /** Cache writes kept for an hour (Anthropic's 1h TTL). */
  readonly cacheCreation1hRatio: number;
  readonly audioRatio: number;
  readonly audioCompletionRatio: number;
  readonly groupRatio: number;
  /** The user-group × using-group special ratio when one applies, else -1 (new-api's log field). */
  readonly userGroupRatio: number;
  /** US dollars per 1,000 server-side web searches (Anthropic's web search tool), charged on top. */
  readonly webSearchPrice: number;
}

/** What the caller used, in OpenAI semantics (prompt includes cached, cache-write and audio input). */
export interface BilledUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens?: number;
  readonly cacheCreationTokens?: number;
  /** Part of `cacheCreationTokens`, billed at `cacheCreation1hRatio`. */
  readonly cacheCreation1hTokens?: number;
  readonly audioInputTokens?: number;
  /** Part of `completionTokens`. */
  readonly audioOutputTokens?: number;
  /** Web searches the vendor ran for the answer (`usage.server_tool_use.web_search_requests`). */
  readonly webSearchRequests?: number;
}

/** The ratio used for an unpriced model when self-use mode (or the user's opt-in) allows it. */
export const unpricedModelRatio = 37.5;
/** Default cache-write multiplier when CreateCacheRatio has no entry (Anthropic's 5-minute writes). */
export const defaultCacheCreationRatio = 1.25;
/**
 * Anthropic bills 1-hour cache writes at 2× the input price against 1.25× for 5-minute ones, so the
 * 1h ratio is the model's cache-write ratio scaled by 2 / 1.25 (new-api derives it the same way).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#pricing
 */
const oneHourCacheWriteScale = 2 / 1.25;

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Completion ratios of the big model families when the CompletionRatio table has no entry for the
 * exact name (new-api's built-in rules; the table always wins here).
 */
export function familyCompletionRatio(model: string): number {
  const name = model.toLowerCase();
  if (name.startsWith('gpt-4o') || name.startsWith('gpt-4.1') || /^o\d/.test(name)) return 4;
  if (name.startsWith('gpt-5')) return 8;
  if (name.startsWith('gpt-4-turbo') || name.startsWith('gpt-3.5')) return 3;
  if (name.startsWith('gpt-4')) return 2;
  if (name.startsWith('claude-')) return 5;
  if (name.startsWith('gemini-')) return 4;
  if (name.startsWith('deepseek')) return 4;
  return 1;
}

/** GroupGroupRatio[userGroup][usingGroup] when present, else GroupRatio[usingGroup] (default 1). */
export function resolveGroupRatio(tables: PriceTables, userGroup: string, usingGroup: string): { groupRatio: number; userGroupRatio: number } {
  const special = tables.groupGroupRatio[userGroup]?.[usingGroup];
  if (finite(special)) return { groupRatio: special, userGroupRatio: special };
  const ratio = tables.groupRatio[usingGroup];
  return { groupRatio: finite(ratio) ? ratio : 1, userGroupRatio: -1 };
}

/** Whether the model has a fixed price or a ratio of its own; a model with neither is refused unless unpriced models are accepted. */
export function hasPrice(tables: PriceTables, model: string): boolean {
  return finite(tables.modelPrice[model]) || finite(tables.modelRatio[model]);
}

/**
 * Per price tables (built again on every change of the options, so a new object), the pricings
 * resolved so far: a relayed request's pricing is one Map read instead of a new object, a walk of
 * the tool prices and the group ratios. Bounded: past `resolvedPerTablesLimit` keys it starts over.
 */
const resolvedPricings = new WeakMap<PriceTables, Map<string, ModelPricing | null>>();
export const resolvedPerTablesLimit = 4096;

/**
 * The pricing of a model, or undefined when the model has neither a price nor a ratio and unpriced
 * models are not accepted (the caller is then refused with a clear error).
 */
export function resolvePricing(
  tables: PriceTables,
  model: string,
  groups: { userGroup: string; usingGroup: string },
  acceptUnpriced: boolean,
): ModelPricing | undefined {
  let resolved = resolvedPricings.get(tables);
  if (!resolved) {
    resolved = new Map();
    resolvedPricings.set(tables, resolved);
  }
  const key = `${acceptUnpriced ? 'u' : 'p'}\n${groups.userGroup}\n${groups.usingGroup}\n${model}`;
  const known = resolved.get(key);
  if (known !== undefined) return known ?? undefined;
  const pricing = pricingOf(tables, model, groups, acceptUnpriced);
  if (resolved.size >= resolvedPerTablesLimit) resolved.clear();
  resolved.set(key, pricing ?? null);
  return pricing;
}

function pricingOf(tables: PriceTables, model: string, groups: { userGroup: string; usingGroup: string }, acceptUnpriced: boolean): ModelPricing | undefined {
  const price = tables.modelPrice[model];
  let ratio = tables.modelRatio[model];
  const usePrice = finite(price);
  if (!hasPrice(tables, model)) {
    if (!acceptUnpriced) return undefined;
    ratio = unpricedModelRatio;
  }
  const completion = tables.completionRatio[model];
  const cache = tables.cacheRatio[model];
  const cacheCreation = tables.createCacheRatio[model];
  const cacheCreationRatio = finite(cacheCreation) ? cacheCreation : defaultCacheCreationRatio;
  const audio = tables.audioRatio[model];
  const audioCompletion = tables.audioCompletionRatio[model];
  return {
    usePrice,
    modelPrice: usePrice ? price : -1,
    modelRatio: finite(ratio) ? ratio : 0,
    completionRatio: finite(completion) ? completion : familyCompletionRatio(model),
    cacheRatio: finite(cache) ? cache : 1,
    cacheCreationRatio,
    cacheCreation1hRatio: cacheCreationRatio * oneHourCacheWriteScale,
    audioRatio: finite(audio) ? audio : 1,
    audioCompletionRatio: finite(audioCompletion) ? audioCompletion : 1,
    ...resolveGroupRatio(tables, groups.userGroup, groups.usingGroup),
    webSearchPrice: toolPrice(tables.toolPrices, 'web_search', model),
  };
}

/**
 * The amount held before the upstream is called. Ratio mode: the prompt estimate (at least
 * PreConsumedQuota tokens) plus max_tokens at the completion ratio, so a request that names
 * max_tokens can never cost more than it holds. Price mode: the whole per-call price.
 */
export function preConsumeQuota(
  pricing: ModelPricing,
  input: { promptTokens: number; maxTokens: number; floorTokens: number; calls?: number },
  quotaPerUnit: number,
): number {
  if (pricing.usePrice) return Math.round(pricing.modelPrice * quotaPerUnit * pricing.groupRatio * (input.calls ?? 1));
  const tokens = Math.max(input.promptTokens, input.floorTokens) + input.maxTokens * pricing.completionRatio;
  return Math.round(tokens * pricing.modelRatio * pricing.groupRatio);
}

/**
 * The most a request can cost, for the ledger's exposure: the prompt estimate plus `completionTokens`
 * (the caller's limit, else the model's output limit, see output-limits.ts) at the completion ratio,
 * or at the audio output price when that is higher; never less than the hold. A per-call price is
 * fixed, so the hold is the worst case. Scalar arguments: this runs on every relayed request.
 */
export function worstCaseQuota(pricing: ModelPricing, promptTokens: number, completionTokens: number, hold: number): number {
  if (pricing.usePrice) return hold;
  return Math.max(hold, estimatedQuota(pricing, promptTokens, completionTokens));
}

/**
 * What `promptTokens` in and `completionTokens` out cost at the higher output rate (text or audio),
 * before any hold: a request's expected cost near the edge of a balance (ratio mode only).
 */
export function estimatedQuota(pricing: ModelPricing, promptTokens: number, completionTokens: number): number {
  const outputRatio = Math.max(pricing.completionRatio, pricing.audioRatio * pricing.audioCompletionRatio);
  return Math.round((promptTokens + completionTokens * outputRatio) * pricing.modelRatio * pricing.groupRatio);
}

/**
 * The final charge. Ratio mode, with p = prompt, c = completion, k = cached, w = cache-write (of
 * which h kept for an hour), ai/ao = audio in/out:
 *   ((p − k − w − ai) + k·cacheRatio + (w − h)·cacheCreationRatio + h·cacheCreation1hRatio + ai·audioRatio
 *    + (c − ao)·completionRatio + ao·audioRatio·audioCompletionRatio) × modelRatio × groupRatio
 * rounded, and at least 1 when anything was used on a priced model. Price mode: price × calls ×
 * QuotaPerUnit × groupRatio.
 */
export function computeQuota(pricing: ModelPricing, usage: BilledUsage, quotaPerUnit: number, calls = 1): number {
  const surcharge = toolSurchargeQuota(pricing, usage, quotaPerUnit);
  if (pricing.usePrice) return Math.round(pricing.modelPrice * quotaPerUnit * pricing.groupRatio * calls) + surcharge;
  return tokenQuota(pricing, usage) + surcharge;
}

/**
 * Server-side tool calls billed on top of the tokens, as new-api's tool surcharges: price per 1,000
 * calls × calls / 1,000 × QuotaPerUnit × group ratio, rounded.
 */
export function toolSurchargeQuota(pricing: ModelPricing, usage: BilledUsage, quotaPerUnit: number): number {
  const searches = usage.webSearchRequests ?? 0;
  if (searches <= 0 || pricing.webSearchPrice <= 0) return 0;
  return Math.round(((pricing.webSearchPrice * searches) / 1000) * quotaPerUnit * pricing.groupRatio);
}

function tokenQuota(pricing: ModelPricing, usage: BilledUsage): number {
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  const cacheWrite = Math.min(usage.cacheCreationTokens ?? 0, usage.promptTokens - cached);
  const cacheWrite1h = Math.min(usage.cacheCreation1hTokens ?? 0, cacheWrite);
  const audioIn = Math.min(usage.audioInputTokens ?? 0, usage.promptTokens - cached - cacheWrite);
  const audioOut = Math.min(usage.audioOutputTokens ?? 0, usage.completionTokens);
  const plainPrompt = usage.promptTokens - cached - cacheWrite - audioIn;
  const weighted =
    plainPrompt +
    cached * pricing.cacheRatio +
    (cacheWrite - cacheWrite1h) * pricing.cacheCreationRatio +
    cacheWrite1h * pricing.cacheCreation1hRatio +
    audioIn * pricing.audioRatio +
    (usage.completionTokens - audioOut) * pricing.completionRatio +
    audioOut * pricing.audioRatio * pricing.audioCompletionRatio;
  const quota = Math.round(weighted * pricing.modelRatio * pricing.groupRatio);
  const used = usage.promptTokens + usage.completionTokens > 0;
  if (quota <= 0 && used && pricing.modelRatio * pricing.groupRatio > 0) return 1;
  return Math.max(0, quota);
}

/** US dollars per million tokens as the pricing page shows them (ratio × 2 × group ratio). */
export function pricePerMillion(pricing: ModelPricing): { prompt: number; completion: number } {
  const prompt = pricing.modelRatio * 2 * pricing.groupRatio;
  return { prompt, completion: prompt * pricing.completionRatio };
}
