import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { startOperationsJobs } from '../jobs/operations-jobs.ts';
import { registerChannelRoutes } from './channel/channel.routes.ts';
import { registerDataRoutes } from './data/data.routes.ts';
import { registerGroupRoutes } from './group/group.routes.ts';
import { registerLogRoutes } from './log/log.routes.ts';
import { registerPricingRoutes } from './pricing/pricing.routes.ts';
import { registerRedemptionRoutes } from './redemption/redemption.routes.ts';
import { registerTaskRoutes } from './task/task.routes.ts';
import { registerTokenRoutes } from './token/token.routes.ts';
import { registerWalletRoutes } from './wallet/wallet.routes.ts';

/** Channels, tokens, codes, wallet, logs, pricing and dashboard data (spec: gateway-operations.md). */
export async function registerOperationsRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  registerChannelRoutes(app, context);
  registerGroupRoutes(app, context);
  registerTokenRoutes(app, context);
  registerRedemptionRoutes(app, context);
  await registerWalletRoutes(app, context);
  registerLogRoutes(app, context);
  registerTaskRoutes(app, context);
  registerPricingRoutes(app, context);
  registerDataRoutes(app, context);
  startOperationsJobs(context);
}
