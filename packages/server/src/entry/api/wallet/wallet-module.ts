import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { FailureLimiter } from '../../../core/http/rate-limit.ts';
import { openExpiringStore } from '../../../domain/cluster/shared-expiring-store.ts';
import { OnlineTopUpService } from './online-topup.service.ts';
import { RedeemService } from './redeem.service.ts';
import { WalletRepository } from './wallet.repository.ts';
import { registerWalletRoutes } from './wallet.routes.ts';

/** Unknown redemption codes a user (or an address) may try before being told to wait. */
export const redeemFailureLimits = { perUsername: 10, perIp: 30, windowSeconds: 15 * 60 };

/** The wallet's one composition: its repository, limiter and services, built once, handed to its routes. */
export async function registerWalletModule(app: FastifyInstance, context: AppContext): Promise<void> {
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
