import type { FastifyInstance } from 'fastify';
import { startOperationsJobs, type OperationsJobsDependencies } from './operations-jobs.ts';
import type { AccountsForOthers } from './accounts-module.ts';
import { registerChannelModule, type ChannelModuleDependencies } from './channel/channel-module.ts';
import { registerDataModule, type DataModuleDependencies } from './data/data-module.ts';
import { registerExportModule, type ExportModuleDependencies } from './export/export-module.ts';
import { registerGroupRoutes, type GroupRoutesDependencies } from './group/group.routes.ts';
import { registerLogModule, type LogModuleDependencies } from './log/log-module.ts';
import { registerModelCatalogueModule, type ModelCatalogueDependencies } from './model-catalogue/model-catalogue-module.ts';
import { registerMoveOverModule, type MoveOverDependencies } from './move-over/move-over-module.ts';
import { registerPrefillGroupModule, type PrefillGroupDependencies } from './prefill-group/prefill-group-module.ts';
import { registerPricingModule, type PricingDependencies } from './pricing/pricing-module.ts';
import { registerRedemptionModule, type RedemptionDependencies } from './redemption/redemption-module.ts';
import { registerTaskModule, type TaskModuleDependencies } from './task/task-module.ts';
import { registerTokenModule, type TokenModuleDependencies } from './token/token-module.ts';
import { registerWalletModule, type WalletDependencies } from './wallet/wallet-module.ts';

/** What the operations modules use together: each module's own dependencies, named in its file. */
export type OperationsDependencies = ChannelModuleDependencies &
  GroupRoutesDependencies &
  PrefillGroupDependencies &
  ModelCatalogueDependencies &
  TokenModuleDependencies &
  RedemptionDependencies &
  WalletDependencies &
  LogModuleDependencies &
  TaskModuleDependencies &
  PricingDependencies &
  DataModuleDependencies &
  ExportModuleDependencies &
  MoveOverDependencies &
  OperationsJobsDependencies;

/** Channels, tokens, codes, wallet, logs, pricing and dashboard data. */
export async function registerOperationsRoutes(app: FastifyInstance, context: OperationsDependencies, accounts: AccountsForOthers): Promise<void> {
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
