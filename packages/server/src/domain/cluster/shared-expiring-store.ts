import { createClusterExpiringStore } from './cluster-expiring-store.ts';
import { PrimaryLink } from './primary-link.ts';
import type { Clock } from '../../core/platform/clock.ts';
import { createMemoryExpiringStore, createRedisExpiringStore, type ExpiringStore } from '../../core/platform/expiring-store.ts';
import type { Redis } from '../../core/platform/redis.ts';

/**
 * The short-lived value store every instance and process shares as far as it can: Redis when
 * configured; else, in a worker of several (WORKERS), the primary process's store; else this process's.
 */
export function openExpiringStore(redis: Redis | undefined, clock: Clock): ExpiringStore {
  if (redis) return createRedisExpiringStore(redis);
  const link = PrimaryLink.get();
  return link ? createClusterExpiringStore(link) : createMemoryExpiringStore(clock);
}
