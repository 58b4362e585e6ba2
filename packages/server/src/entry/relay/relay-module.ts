import type { FastifyInstance } from 'fastify';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import type { ConsoleSessionLookup } from '../../domain/auth/console-session.ts';
import type { ChargeJournal } from '../../domain/billing/charge-journal.ts';
import { registerBudgetModule } from '../../domain/budgets/budget-module.ts';
import { registerChannelHealthModule, type ChannelHealthDependencies } from './channel-health/channel-health-module.ts';
import { registerBreakerRoutes } from './circuit-breaker/breaker.routes.ts';
import { registerJournalHealthRoute } from './journal-health.routes.ts';
import { readRelayBody } from './relay-body-parser.ts';
import { registerAnthropicEntryRoutes } from './entry/anthropic/messages.routes.ts';
import { registerGeminiEntryRoutes } from './entry/gemini/generate.routes.ts';
import type { RelayServices } from './relay-services.ts';
import { registerBillingDashboardRoutes } from './routes/billing-dashboard.routes.ts';
import { registerModelRoutes } from './routes/models.routes.ts';
import { registerPlaygroundRoutes } from './routes/playground.routes.ts';
import { registerRealtimeRoute } from './realtime/realtime.routes.ts';
import { registerRelayEndpoints } from './routes/relay.routes.ts';
import type { CacheSavingsRepository } from './response-cache/cache-savings.repository.ts';
import { registerResponseCacheRoutes } from './response-cache/response-cache.routes.ts';
import { matchedRoute } from '../../core/http/matched-route.ts';

/** Relay bodies may carry base64 images and audio files. */
const relayBodyLimit = 64 * 1024 * 1024;

/** Relay routes whose caller is the console's logged-in user (matched pattern, never the URL text). */
function isSessionAuthenticated(routePattern: string | undefined): boolean {
  return routePattern?.startsWith('/pg/') === true;
}

/**
 * Routes served beside the relay's own, in its scope (its body parser and CORS) and on its services:
 * the task relays (/mj, /suno). app.ts passes them in, because tasks/ builds on the relay.
 */
export type RelayScopeRoutes = (scope: FastifyInstance, services: RelayServices) => void;

/** What the relay's routes use beside its services; `compose-relay.ts` builds them. */
export interface RelayRouteDependencies {
  /** Tells every instance of a cleared response cache and of edited budgets. */
  readonly bus: ChangeBus;
  /** The response cache's hit and savings figures (log database). */
  readonly cacheSavings: CacheSavingsRepository;
  /** This process's quota journal, when QUOTA_JOURNAL_DIR is not `off`: its health for root's banner. */
  readonly journal: ChargeJournal | undefined;
  /** The playground's caller: the console's logged-in user. */
  readonly logins: ConsoleSessionLookup;
  readonly channelHealth: ChannelHealthDependencies;
}

/**
 * The relay's routes on its wired services: /v1, /pg and the legacy billing routes, the routes passed
 * in (the task relays), the channel tests, breakers, response cache, budgets and the journal's health.
 */
export async function registerRelayRoutes(
  app: FastifyInstance,
  services: RelayServices,
  dependencies: RelayRouteDependencies,
  besideRelay: readonly RelayScopeRoutes[] = [],
): Promise<void> {
  registerBreakerRoutes(app, services.breakers, services.channels);
  registerResponseCacheRoutes(app, services.responseCache, dependencies.bus, dependencies.cacheSavings, services.clock);
  registerJournalHealthRoute(app, dependencies.journal, services.options);

  registerChannelHealthModule(app, services, dependencies.channelHealth);
  registerBudgetModule(app, services, dependencies.bus);
  // WebSocket sessions arrive as HTTP upgrades, outside Fastify's routing and body parsing.
  registerRealtimeRoute(app, services);
  await app.register(async (scope) => {
    // Relay bodies are kept as bytes: forwarded untouched, parsed once by the pipeline.
    scope.removeAllContentTypeParsers();
    const readBody = readRelayBody(relayBodyLimit);
    // JSON by name as well: Fastify caches the parser it finds for a content type, but not the
    // catch-all, which it looked up again on every request (parsing the header each time).
    scope.addContentTypeParser('application/json', readBody);
    scope.addContentTypeParser('*', readBody);
    // Key-authenticated routes may be called from any web page (chat front ends), as in new-api: the
    // key travels in a header, so any origin is allowed and credentials never are (a cookie-bearing
    // cross-site call gets nothing readable). The playground runs on the console's session cookie:
    // it is for the console's own origin only and answers no cross-origin request or preflight.
    // Callback style: on every relay request an async hook costs a promise.
    scope.addHook('onRequest', (request, reply, done) => {
      if (!isSessionAuthenticated(matchedRoute(request).url)) {
        reply.header('access-control-allow-origin', '*');
        if (request.method === 'OPTIONS')
          reply.header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS').header('access-control-allow-headers', '*');
      }
      done();
    });
    for (const path of ['/v1/*', '/dashboard/*']) scope.options(path, async (_request, reply) => reply.status(204).send());
    registerRelayEndpoints(scope, services);
    registerModelRoutes(scope, services);
    registerBillingDashboardRoutes(scope, services);
    registerPlaygroundRoutes(scope, services, dependencies.logins);
    registerAnthropicEntryRoutes(scope, services);
    registerGeminiEntryRoutes(scope, services);
    for (const register of besideRelay) register(scope, services);
  });
}
