import enChannels from '../../../packages/web/src/locales/en/channels.json' with { type: 'json' };
import enDashboard from '../../../packages/web/src/locales/en/dashboard.json' with { type: 'json' };
import enDrawing from '../../../packages/web/src/locales/en/drawing.json' with { type: 'json' };
import enLogs from '../../../packages/web/src/locales/en/logs.json' with { type: 'json' };
import enPlayground from '../../../packages/web/src/locales/en/playground.json' with { type: 'json' };
import enPricing from '../../../packages/web/src/locales/en/pricing.json' with { type: 'json' };
import enRedemptions from '../../../packages/web/src/locales/en/redemptions.json' with { type: 'json' };
import enTasks from '../../../packages/web/src/locales/en/tasks.json' with { type: 'json' };
import enTokens from '../../../packages/web/src/locales/en/tokens.json' with { type: 'json' };
import enWallet from '../../../packages/web/src/locales/en/wallet.json' with { type: 'json' };
import zhChannels from '../../../packages/web/src/locales/zh/channels.json' with { type: 'json' };
import zhDashboard from '../../../packages/web/src/locales/zh/dashboard.json' with { type: 'json' };
import zhDrawing from '../../../packages/web/src/locales/zh/drawing.json' with { type: 'json' };
import zhLogs from '../../../packages/web/src/locales/zh/logs.json' with { type: 'json' };
import zhPlayground from '../../../packages/web/src/locales/zh/playground.json' with { type: 'json' };
import zhPricing from '../../../packages/web/src/locales/zh/pricing.json' with { type: 'json' };
import zhRedemptions from '../../../packages/web/src/locales/zh/redemptions.json' with { type: 'json' };
import zhTasks from '../../../packages/web/src/locales/zh/tasks.json' with { type: 'json' };
import zhTokens from '../../../packages/web/src/locales/zh/tokens.json' with { type: 'json' };
import zhWallet from '../../../packages/web/src/locales/zh/wallet.json' with { type: 'json' };

/** The console's own strings, so each test reads the labels a user sees in either language. */
export const locales = {
  zh: {
    channels: zhChannels,
    tokens: zhTokens,
    logs: zhLogs,
    redemptions: zhRedemptions,
    wallet: zhWallet,
    pricing: zhPricing,
    playground: zhPlayground,
    dashboard: zhDashboard,
    drawing: zhDrawing,
    tasks: zhTasks,
  },
  en: {
    channels: enChannels,
    tokens: enTokens,
    logs: enLogs,
    redemptions: enRedemptions,
    wallet: enWallet,
    pricing: enPricing,
    playground: enPlayground,
    dashboard: enDashboard,
    drawing: enDrawing,
    tasks: enTasks,
  },
};
