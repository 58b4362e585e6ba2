import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { startOperationsJobs } from './operations-jobs.ts';
import type { AccountsForOthers } from './accounts-module.ts';
import { registerChannelModule } from './channel/channel-module.ts';
import { registerDataModule } from './data/data-module.ts';
import { registerExportModule } from './export/export-module.ts';
import { registerGroupRoutes } from './group/group.routes.ts';
import { registerLogModule } from './log/log-module.ts';
import { registerModelCatalogueModule } from './model-catalogue/model-catalogue-module.ts';
import { registerMoveOverModule } from './move-over/move-over-module.ts';
import { registerPrefillGroupModule } from './prefill-group/prefill-group-module.ts';
import { registerPricingModule } from './pricing/pricing-module.ts';
import { registerRedemptionModule } from './redemption/redemption-module.ts';
import { registerTaskModule } from './task/task-module.ts';
import { registerTokenModule } from './token/token-module.ts';
import { registerWalletModule } from './wallet/wallet-module.ts';

/** Channels, tokens, codes, wallet, logs, pricing and dashboard data. */
export async function registerOperationsRoutes(app: FastifyInstance, context: AppContext, accounts: AccountsForOthers): Promise<void> {
  registerChannelModule(app, context, accounts.reverification);
  registerGroupRoutes(app, context);
  registerPrefillGroupModule(app, context);
  registerModelCatalogueModule(app, context);
  registerTokenModule(app, context);
  registerRedemptionModule(app, context);
  await registerWalletModule(app, context);
  registerLogModule(app, context);
  registerTaskModule(app, context);
  registerPricingModule(app, context);
  registerDataModule(app, context);
  registerExportModule(app, context);
  registerMoveOverModule(app, context);
  startOperationsJobs(context);
}
