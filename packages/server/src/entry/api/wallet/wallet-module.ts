import type { FastifyInstance } from 'fastify';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { Redis } from '../../../core/platform/redis.ts';
import type { BalanceChanges } from '../../../domain/billing/balance-changes.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { FailureLimiter } from '../../../core/http/rate-limit.ts';
import { openExpiringStore } from '../../../domain/cluster/shared-expiring-store.ts';
import { OnlineTopUpService } from './online-topup.service.ts';
import { RedeemService } from './redeem.service.ts';
import { WalletRepository } from './wallet.repository.ts';
import { registerWalletRoutes } from './wallet.routes.ts';

/** Unknown redemption codes a user (or an address) may try before being told to wait. */
export const redeemFailureLimits = { perUsername: 10, perIp: 30, windowSeconds: 15 * 60 };

/** What the wallet uses: its tables, the redemption limiter's store, settings, clock, the change bus, the top-up log and the spending guard. */
export interface WalletDependencies {
  readonly database: DatabaseHandle;
  /** Shared by every instance when REDIS_CONN_STRING is set. */
  readonly redis?: Redis;
  readonly options: OptionStore;
  readonly bus: ChangeBus;
  readonly logWriter: LogWriter;
  readonly clock: Clock;
  readonly balanceChanges: BalanceChanges;
}

/** The wallet's one composition: its repository, limiter and services, built once, handed to its routes. */
export async function registerWalletModule(app: FastifyInstance, context: WalletDependencies): Promise<void> {
  const repository = new WalletRepository(context.database.db);
  const store = openExpiringStore(context.redis, context.clock);
  const { options, bus, logWriter, clock, balanceChanges } = context;
  await registerWalletRoutes(app, {
    redeem: new RedeemService({
      repository,
      limiter: new FailureLimiter(store, 'redeem', redeemFailureLimits),
      options,
      bus,
      logWriter,
      clock,
      balanceChanges,
    }),
    online: new OnlineTopUpService({ repository, options, bus, logWriter, clock, balanceChanges }),
    options,
  });
}
