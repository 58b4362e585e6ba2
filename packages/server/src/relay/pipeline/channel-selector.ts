import type { ChannelRecord, PriorityTier, WeightedChannel } from '../cache/channel-cache.ts';

/**
 * Picks the channel for attempt `attempt` (0 first): the attempt number selects the priority tier
 * (0 → highest, 1 → next, clamped to the lowest), a channel already tried is never picked again,
 * and inside the tier the pick is weighted random (all-zero weights count as equal). When the tier
 * has nothing untried, the next lower tier is used, then any untried channel at all.
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
): ChannelRecord | undefined {
  if (tiers.length === 0) return undefined;
  const start = Math.min(attempt, tiers.length - 1);
  const order = [...tiers.slice(start), ...tiers.slice(0, start)];
  if (usable) {
    for (const tier of order) {
      const candidates = tier.channels.filter((entry) => !tried.has(entry.channel.id) && usable(entry.channel));
      if (candidates.length > 0) return pickWeighted(candidates, random);
    }
  }
  for (const tier of order) {
    const untried = tier.channels.filter((entry) => !tried.has(entry.channel.id));
    if (untried.length > 0) return pickWeighted(untried, random);
  }
  return undefined;
}

function pickWeighted(entries: readonly WeightedChannel[], random: () => number): ChannelRecord | undefined {
  const total = entries.reduce((sum, entry) => sum + entry.weight, 0);
  if (total <= 0) return entries[Math.floor(random() * entries.length)]?.channel;
  let point = random() * total;
  for (const entry of entries) {
    point -= entry.weight;
    if (point < 0) return entry.channel;
  }
  return entries[entries.length - 1]?.channel;
}

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
