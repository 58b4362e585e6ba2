import type { ChannelRecord, PriorityTier } from '../cache/channel-cache.ts';
import { chooseWeighted, pickWeightedIndex, sampleCandidates, tierWeight, type TierChooser } from '../pipeline/channel-selector.ts';
import type { BusyCounts } from './busy-counts.ts';
import type { LatencyBook } from './latency-book.ts';
import type { UsageWindows } from './usage-windows.ts';

/**
 * The channels a strategy scores in one tier: all of a small tier, a weighted sample of a large
 * one (power-of-d choices), so the cost per request stays bounded whatever the tier's size.
 */
const scoredCandidates = 16;
/** Share of lowest-latency picks made at random by weight, so every channel keeps being measured. */
export const explorationRate = 0.05;

/**
 * The candidate with the lowest score; weights are the prior: a score is divided by the channel's
 * weight (a channel of twice the weight may be twice as busy or slow), ties broken by weight.
 */
function lowestScore(
  tier: PriorityTier,
  candidates: readonly number[],
  random: () => number,
  score: (channel: ChannelRecord) => number,
): ChannelRecord | undefined {
  let best = Number.POSITIVE_INFINITY;
  let tied: number[] = [];
  for (const index of candidates) {
    const weight = tierWeight(tier, index);
    const value = weight > 0 ? score((tier.channels[index] as { channel: ChannelRecord }).channel) / weight : Number.POSITIVE_INFINITY;
    if (value < best) {
      best = value;
      tied = [index];
    } else if (value === best) tied.push(index);
  }
  const picked = pickWeightedIndex(tier, tied, random);
  return picked === undefined ? undefined : tier.channels[picked]?.channel;
}

/** `least-busy`: the fewest requests in flight across the processes that report (busy-counts.ts). */
export function leastBusyChooser(busy: BusyCounts): TierChooser {
  return (tier, eligible, random) => lowestScore(tier, sampleCandidates(tier, eligible, random, scoredCandidates), random, (channel) => busy.of(channel.id));
}

/**
 * `lowest-latency`: the lowest average time to first byte for the model. A channel without a
 * recent measurement is tried first (it may have recovered), and a few picks are random by weight.
 */
export function lowestLatencyChooser(latency: LatencyBook, model: string): TierChooser {
  return (tier, eligible, random) => {
    const candidates = sampleCandidates(tier, eligible, random, scoredCandidates);
    if (candidates.length === 0) return undefined;
    const unmeasured = candidates.filter((index) => latency.averageMs((tier.channels[index] as { channel: ChannelRecord }).channel.id, model) === undefined);
    const explore = unmeasured.length > 0 ? unmeasured : random() < explorationRate ? candidates : undefined;
    if (explore) {
      const picked = pickWeightedIndex(tier, explore, random);
      return picked === undefined ? undefined : tier.channels[picked]?.channel;
    }
    return lowestScore(tier, candidates, random, (channel) => latency.averageMs(channel.id, model) ?? 0);
  };
}

/** `usage-aware`: weighted among the channels with room under their RPM/TPM and one key's (usage-windows.ts). */
export function withRoomChooser(usage: UsageWindows): TierChooser {
  return (tier, eligible, random) => chooseWeighted(tier, (channel) => eligible(channel) && usage.hasRoom(channel), random);
}
