import type { AppContext } from '../../../app-context.ts';
import { PrimaryLink } from '../../../domain/cluster/primary-link.ts';
import { deploymentNamespace } from '../../../core/platform/deployment-namespace.ts';
import { primaryBusyExchange, redisBusyExchange } from './busy-sharing.ts';
import { ChannelRouter } from './channel-router.ts';

/**
 * The router of this process, with the in-flight counts shared where others route too: through
 * Redis between instances (every worker reports on its own), through the primary between the
 * workers of a machine without Redis, not at all in a lone process.
 */
export function openChannelRouter(context: AppContext, instanceId: string): ChannelRouter {
  const link = PrimaryLink.get();
  const busyExchange = context.redis
    ? redisBusyExchange(context.redis, deploymentNamespace(context.config.sqlDsn, context.config.sqlitePath), `${instanceId}.${process.pid}`)
    : link
      ? primaryBusyExchange(link)
      : undefined;
  return new ChannelRouter({ options: context.options, now: () => context.clock.now(), busyExchange });
}
