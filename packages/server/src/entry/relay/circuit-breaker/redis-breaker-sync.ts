import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import type { Redis } from '../../../core/platform/redis.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { BreakerSync, ChannelBreakers } from './channel-breakers.ts';
import type { Transition } from './circuit.ts';

/** Open circuits by id → the Unix ms they turn half-open: what an instance starting later reads. */
const openCircuitsKey = 'switchboard:breaker:open';
const probeKeyPrefix = 'switchboard:breaker:probe:';
/** How long the open-circuit hash outlives the newest cool-down in it. */
const hashGraceMs = 60_000;

function encode(id: string, transition: Transition): string {
  return JSON.stringify(transition.state === 'open' ? { id, state: 'open', openUntil: transition.openUntil } : { id, state: 'closed' });
}

function decode(payload: string): { id: string; transition: Transition } | undefined {
  const parsed = safeParseJson(payload);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const value = parsed.value as { id?: unknown; state?: unknown; openUntil?: unknown };
  if (typeof value.id !== 'string') return undefined;
  if (value.state === 'closed') return { id: value.id, transition: { state: 'closed' } };
  if (value.state === 'open' && typeof value.openUntil === 'number') return { id: value.id, transition: { state: 'open', openUntil: value.openUntil } };
  return undefined;
}

/**
 * Shares breaker state through Redis: a state change is published on the change bus (every instance,
 * this one included, applies it) and kept in a hash for instances that start later; a half-open
 * circuit's probe is claimed with SET NX, so one request in the whole cluster probes. Counting stays
 * on each instance (no Redis call per request); once any instance opens a circuit, all skip it.
 * A lost Redis leaves each instance judging alone, with a warning, never failing a request.
 */
export async function shareBreakersThroughRedis(breakers: ChannelBreakers, redis: Redis, bus: ChangeBus, clock: Clock, logger: Logger): Promise<void> {
  bus.subscribe(changeTopics.breakers, (payload) => {
    const message = decode(payload);
    if (message) breakers.applyRemote(message.id, message.transition);
  });
  const warn = (error: unknown) => logger.warn({ err: error }, 'circuit breaker state not shared: Redis unreachable');
  const sync: BreakerSync = {
    publish(id, transition) {
      // The hash lives a little past its newest cool-down: an instance starting later still sees open
      // circuits, never ones left behind by instances long gone.
      const stored =
        transition.state === 'open'
          ? redis
              .multi()
              .hset(openCircuitsKey, id, String(transition.openUntil))
              .pexpire(openCircuitsKey, Math.max(1, transition.openUntil - clock.now()) + hashGraceMs)
              .exec()
          : redis.hdel(openCircuitsKey, id);
      void stored.then(() => bus.announce(changeTopics.breakers, encode(id, transition))).catch(warn);
    },
    async claimProbe(id, ttlMs) {
      try {
        return (await redis.set(`${probeKeyPrefix}${id}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch (error) {
        warn(error);
        return true;
      }
    },
  };
  try {
    const open = await redis.hgetall(openCircuitsKey);
    // Only circuits still cooling down: one whose cool-down passed is left for this instance to judge.
    const now = clock.now();
    for (const [id, until] of Object.entries(open)) if (Number(until) > now) breakers.applyRemote(id, { state: 'open', openUntil: Number(until) });
  } catch (error) {
    warn(error);
  }
  breakers.share(sync);
}
