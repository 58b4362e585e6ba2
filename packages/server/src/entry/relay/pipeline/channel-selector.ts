import { weightedTier, type ChannelRecord, type PriorityTier } from '../cache/channel-cache.ts';

/**
 * Channels the selector has looked at, ever: a deterministic measure of the chooser's work, which
 * the test of "cost independent of the number of channels" compares between 10 and 10,000 channels.
 * One increment per look; nothing else reads it.
 */
export const selectorWork = { visited: 0 };

/** A tier's channel that passes `eligible`, chosen by a routing strategy (weighted random unless told). */
export type TierChooser = (tier: PriorityTier, eligible: (channel: ChannelRecord) => boolean, random: () => number) => ChannelRecord | undefined;

/**
 * Picks the channel for attempt `attempt` (0 first): the attempt number selects the priority tier
 * (0 → highest, 1 → next, clamped to the lowest), a channel already tried is never picked again,
 * and inside the tier `choose` picks (weighted random by default; all-zero weights count as equal).
 * When the tier has nothing untried, the next lower tier is used, then any untried channel at all.
 *
 * `usable` is the circuit breaker's say: channels it rejects (open, cooling down) are passed over
 * in every tier first. Only when nothing usable is left are they picked after all, as the last
 * resort: like Envoy's panic routing, trying a channel that may have recovered beats refusing the
 * caller outright, and a single-channel route then behaves as it would without a breaker.
 */
export function selectChannel(
  tiers: readonly PriorityTier[],
  attempt: number,
  tried: ReadonlySet<number>,
  random: () => number = Math.random,
  usable?: (channel: ChannelRecord) => boolean,
  choose: TierChooser = chooseWeighted,
): ChannelRecord | undefined {
  const count = tiers.length;
  if (count === 0) return undefined;
  const start = Math.min(attempt, count - 1);
  if (usable) {
    const eligible = (channel: ChannelRecord) => !tried.has(channel.id) && usable(channel);
    for (let offset = 0; offset < count; offset += 1) {
      const picked = choose(tiers[(start + offset) % count] as PriorityTier, eligible, random);
      if (picked) return picked;
    }
  }
  const untried = (channel: ChannelRecord) => !tried.has(channel.id);
  for (let offset = 0; offset < count; offset += 1) {
    const picked = choose(tiers[(start + offset) % count] as PriorityTier, untried, random);
    if (picked) return picked;
  }
  return undefined;
}

/**
 * Tiers up to this size are walked whole (the cost is bounded by it); larger ones are sampled by
 * weight, so a tier of 10,000 channels costs a few binary searches, not a walk of 10,000.
 */
const walkedTierSize = 8;
const maxDraws = 8;

/** Running weight totals of tiers not built by the cache (tests, task routes), computed once per tier object. */
const cumulativeOfLooseTiers = new WeakMap<PriorityTier, Float64Array>();

function cumulativeWeights(tier: PriorityTier): Float64Array {
  if (tier.cumulativeWeights) return tier.cumulativeWeights;
  let cumulative = cumulativeOfLooseTiers.get(tier);
  if (!cumulative) {
    cumulative = weightedTier(tier.priority, tier.channels).cumulativeWeights as Float64Array;
    cumulativeOfLooseTiers.set(tier, cumulative);
  }
  return cumulative;
}

/** The index a weighted draw lands on: binary search of the running totals. */
function drawIndex(cumulative: Float64Array, random: () => number): number {
  const total = cumulative[cumulative.length - 1] ?? 0;
  const point = random() * total;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((cumulative[middle] as number) > point) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The weight a channel of the tier counts with (all-zero tiers: 1 each). */
export function tierWeight(tier: PriorityTier, index: number): number {
  const cumulative = cumulativeWeights(tier);
  return (cumulative[index] as number) - (index === 0 ? 0 : (cumulative[index - 1] as number));
}

/**
 * Indexes of up to `limit` eligible channels of a tier for a strategy to score: every eligible one
 * of a small tier, a weighted sample (without repeats) of a large one. Weights are the prior: a
 * channel of weight 0 next to weighted ones is sampled only when nothing else is eligible.
 */
export function sampleCandidates(tier: PriorityTier, eligible: (channel: ChannelRecord) => boolean, random: () => number, limit: number): number[] {
  const entries = tier.channels;
  const picked: number[] = [];
  if (entries.length > limit) {
    const cumulative = cumulativeWeights(tier);
    for (let draw = 0; draw < limit * 2 && picked.length < limit; draw += 1) {
      const index = drawIndex(cumulative, random);
      selectorWork.visited += 1;
      if (!picked.includes(index) && eligible((entries[index] as { channel: ChannelRecord }).channel)) picked.push(index);
    }
    if (picked.length > 0) return picked;
  }
  // A small tier, or a large one where the draws found nothing eligible (nearly all tried or broken).
  selectorWork.visited += entries.length;
  for (let index = 0; index < entries.length && picked.length < Math.max(limit, walkedTierSize); index += 1) {
    if (eligible((entries[index] as { channel: ChannelRecord }).channel)) picked.push(index);
  }
  return picked;
}

/** Weighted random among some indexes of a tier (all zero: equal). */
export function pickWeightedIndex(tier: PriorityTier, indexes: readonly number[], random: () => number): number | undefined {
  if (indexes.length <= 1) return indexes[0];
  let total = 0;
  for (const index of indexes) total += tierWeight(tier, index);
  if (total <= 0) return indexes[Math.floor(random() * indexes.length)];
  let point = random() * total;
  for (const index of indexes) {
    point -= tierWeight(tier, index);
    if (point < 0) return index;
  }
  return indexes[indexes.length - 1];
}

/**
 * `weighted`: random by weight among the eligible channels. A small tier is filtered then drawn
 * from (one random number, as always); a large one is drawn from directly, a draw that lands on an
 * ineligible channel drawn again (the same odds as filtering first; a draw never lands on a weight
 * of 0 beside weighted channels), and only after `maxDraws` misses is the tier filtered.
 */
export const chooseWeighted: TierChooser = (tier, eligible, random) => {
  const entries = tier.channels;
  if (entries.length > walkedTierSize) {
    const cumulative = cumulativeWeights(tier);
    for (let draw = 0; draw < maxDraws; draw += 1) {
      const entry = entries[drawIndex(cumulative, random)];
      selectorWork.visited += 1;
      if (entry && eligible(entry.channel)) return entry.channel;
    }
  }
  selectorWork.visited += entries.length;
  const candidates: number[] = [];
  let total = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as { channel: ChannelRecord; weight: number };
    if (!eligible(entry.channel)) continue;
    candidates.push(index);
    total += entry.weight;
  }
  if (candidates.length === 0) return undefined;
  if (total <= 0) return entries[candidates[Math.floor(random() * candidates.length)] as number]?.channel;
  let point = random() * total;
  for (const index of candidates) {
    const entry = entries[index] as { channel: ChannelRecord; weight: number };
    point -= entry.weight;
    if (point < 0) return entry.channel;
  }
  return entries[candidates[candidates.length - 1] as number]?.channel;
};

/**
 * The model name the upstream gets: the channel's model mapping followed transitively
 * (a → b → c), stopping at a cycle.
 */
export function mapModel(mapping: Readonly<Record<string, string>>, model: string): string {
  let current = model;
  const seen = new Set([current]);
  for (let next = mapping[current]; next && !seen.has(next); next = mapping[current]) {
    current = next;
    seen.add(current);
  }
  return current;
}

/** The status the caller and the retry decision see: the channel's status-code mapping applied. */
export function mapStatus(mapping: Readonly<Record<string, string>>, status: number): number {
  const mapped = Number(mapping[String(status)]);
  return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status;
}

/**
 * Whether another channel may succeed where this one failed: connection failures, 401/403/404/429
 * (the channel's problem), 5xx except 504/524 (a timeout may have been served and billed upstream).
 * Caller errors (400, 408, 413, 422) are not retried.
 */
export function isRetryableStatus(status: number): boolean {
  if (status < 100 || status > 599) return true;
  if (status === 504 || status === 524) return false;
  if (status >= 500) return true;
  return status === 401 || status === 402 || status === 403 || status === 404 || status === 429 || (status >= 300 && status < 400);
}
