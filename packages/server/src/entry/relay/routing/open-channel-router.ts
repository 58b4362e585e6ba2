import type { Clock } from '../../../core/platform/clock.ts';
import type { Redis } from '../../../core/platform/redis.ts';
import { PrimaryLink } from '../../../domain/cluster/primary-link.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { primaryBusyExchange, redisBusyExchange } from './busy-sharing.ts';
import { ChannelRouter } from './channel-router.ts';

/** What the router is opened with: its settings and clock, and Redis with the deployment's key prefix when configured. */
export interface ChannelRouterDependencies {
  readonly options: OptionStore;
  readonly clock: Clock;
  readonly redis?: Redis;
  /** The deployment's Redis key prefix (`deploymentNamespace`). */
  readonly namespace: string;
}

/**
 * The router of this process, with the in-flight counts shared where others route too: through
 * Redis between instances (every worker reports on its own), through the primary between the
 * workers of a machine without Redis, not at all in a lone process.
 */
export function openChannelRouter(dependencies: ChannelRouterDependencies, instanceId: string): ChannelRouter {
  const { options, clock, redis, namespace } = dependencies;
  const link = PrimaryLink.get();
  const busyExchange = redis ? redisBusyExchange(redis, namespace, `${instanceId}.${process.pid}`) : link ? primaryBusyExchange(link) : undefined;
  return new ChannelRouter({ options, now: () => clock.now(), busyExchange });
}
