import { describe, expect, it } from 'vitest';
import { routingStrategies } from '@switchboard/contracts';
import type { ChannelCache } from '../cache/channel-cache.ts';
import { selectorWork } from '../pipeline/channel-selector.ts';
import { ChannelRouter } from './channel-router.ts';
import { seededRandom } from './testing/seeded-random.ts';
import { channelCacheOf, routingOptions, syntheticDeployment } from './testing/synthetic-deployment.ts';

/** A tried set that counts its lookups: any chooser must ask it about each channel it considers. */
class CountingSet extends Set<number> {
  lookups = 0;
  override has(value: number): boolean {
    this.lookups += 1;
    return super.has(value);
  }
}

/**
 * The work of 1,000 rounds of two choices on the hot route (a first attempt with the breaker's
 * filter in play, a retry with a tried set), measured two ways that do not depend on timing: the
 * selector's own count of channels looked at, and the calls any implementation must make to the
 * filters it is given for each channel it considers.
 */
function workOf(cache: ChannelCache, strategy: string): { looked: number; asked: number } {
  const router = new ChannelRouter({ options: routingOptions(strategy), now: () => 0 });
  const random = seededRandom(7);
  const before = selectorWork.visited;
  let asked = 0;
  const usable = () => {
    asked += 1;
    return true;
  };
  for (let choice = 0; choice < 1_000; choice += 1) {
    const tiers = cache.tiers('default', 'hot-model');
    const tried = new CountingSet();
    const first = router.choose(tiers, 'default', 'hot-model', 0, tried, random, usable);
    expect(first).toBeDefined();
    tried.add(first?.id ?? 0);
    router.choose(tiers, 'default', 'hot-model', 1, tried, random, (channel) => usable() && channel.id % 3 !== 0);
    asked += tried.lookups;
  }
  return { looked: selectorWork.visited - before, asked };
}

describe("the chooser's cost", () => {
  it.each(routingStrategies)('does not grow with the channels of the deployment (%s)', async (strategy) => {
    const small = await channelCacheOf(syntheticDeployment(10, 12));
    const large = await channelCacheOf(syntheticDeployment(10_000, 12));
    // Same seed, same route: the same choices, whatever else the deployment holds.
    expect(workOf(large, strategy)).toEqual(workOf(small, strategy));
  });

  it.each(routingStrategies)('stays bounded when one tier alone holds 10,000 channels (%s)', async (strategy) => {
    const tenInTier = workOf(await channelCacheOf(syntheticDeployment(0, 10)), strategy);
    const tenThousandInTier = workOf(await channelCacheOf(syntheticDeployment(0, 10_000)), strategy);
    // 2,000 choices: a walk of the tier would look at 20,000,000 channels; sampling looks at a few dozen per choice at most.
    expect(tenThousandInTier.looked).toBeLessThanOrEqual(2_000 * 40);
    expect(tenThousandInTier.asked).toBeLessThanOrEqual(2_000 * 80);
    expect(tenInTier.looked).toBeLessThanOrEqual(2_000 * 40);
  });
});
