/**
 * CPU per channel choice, by routing strategy, with 10 and 10,000 channels in the deployment (and
 * with one tier alone holding 10,000): what the relay spends per request to choose a channel and a
 * key and to count the attempt for the strategy (ChannelRouter.choose, pickKey, began, ended). No
 * gateway, no database: the relay's channel cache loaded with synthetic rows, so only the chooser is
 * measured.
 *
 *   node bench/src/micro/channel-chooser.ts [--choices=200000]
 */
import { routingStrategies } from '@switchboard/contracts';
import { ChannelBreakers } from '../../../packages/server/src/entry/relay/circuit-breaker/channel-breakers.ts';
import type { ChannelCache } from '../../../packages/server/src/entry/relay/cache/channel-cache.ts';
import { ChannelRouter } from '../../../packages/server/src/entry/relay/routing/channel-router.ts';
import { channelCacheOf, routingOptions, syntheticDeployment } from '../../../packages/server/src/entry/relay/routing/testing/synthetic-deployment.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const choices = Number(options.get('--choices') ?? 200_000);

/** Microseconds of CPU (user + system) per choice, the best of three runs. */
function cpuPerChoice(cache: ChannelCache, strategy: string): number {
  const routing = routingOptions(strategy);
  const router = new ChannelRouter({ options: routing, now: Date.now });
  const breakerOptions = { get: () => '', getBoolean: () => true, getNumber: () => 5, onChange: () => undefined } as never;
  const breakers = new ChannelBreakers({ options: breakerOptions, clock: { now: Date.now, unixSeconds: () => Math.floor(Date.now() / 1000) } });
  const tried = new Set<number>();
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run += 1) {
    const started = process.cpuUsage();
    for (let choice = 0; choice < choices; choice += 1) {
      const tiers = cache.tiers('default', 'hot-model');
      const channel = router.choose(tiers, 'default', 'hot-model', 0, tried, Math.random, breakers.usableFilter());
      if (!channel) throw new Error('no channel chosen');
      const keyIndex = router.pickKey(channel, 'default', Math.random, breakers);
      const attempt = router.began(channel, keyIndex);
      router.ended(attempt, 'hot-model', { firstByteMs: 120, tokens: 40 });
    }
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / choices);
  }
  router.close();
  return best;
}

const layouts: Array<[string, number, number]> = [
  ['10 channels, route of 4', 10, 4],
  ['10,000 channels, route of 4', 10_000, 4],
  ['10,000 channels in the route', 0, 10_000],
];
const caches = await Promise.all(layouts.map(([, channels, hot]) => channelCacheOf(syntheticDeployment(channels, hot))));
console.log(`CPU per choice (µs, best of 3 × ${choices} choices)`);
console.log(['strategy', ...layouts.map(([name]) => name)].join(' | '));
for (const strategy of routingStrategies) {
  const row = caches.map((cache) => cpuPerChoice(cache, strategy).toFixed(3));
  console.log([strategy, ...row].join(' | '));
}
