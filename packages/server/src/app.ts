import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import packageJson from '../package.json' with { type: 'json' };
import type { AppContext, AppDependencies } from './app-context.ts';
import { composeRelay } from './compose-relay.ts';
import { registerAccountRoutes } from './entry/api/accounts-module.ts';
import { registerOperationsRoutes } from './entry/api/operations-module.ts';
import { registerStatusRoutes } from './entry/api/status/status.routes.ts';
import { AuthRepository } from './domain/auth/auth.repository.ts';
import { registerAuthentication } from './domain/auth/authenticate.ts';
import { SessionService } from './domain/auth/session-service.ts';
import { trackRouteAccess, type DeclaredRoute } from './core/http/access.ts';
import { createAccessLog } from './core/http/access-log.ts';
import { answerGraceMs, drainConnectionsOnClose } from './core/http/connection-drain.ts';
import { registerConsoleAssets } from './core/http/console-assets.ts';
import { registerErrorHandling } from './core/http/error-handler.ts';
import { generateRequestId, requestIdHeader } from './core/http/request-id.ts';
import { BalanceChanges } from './domain/billing/balance-changes.ts';
import { PrimaryLimitStore } from './domain/cluster/primary-limit-store.ts';
import { PrimaryLink } from './domain/cluster/primary-link.ts';
import { openLimitStore } from './domain/limits/fallback-limit-store.ts';
import { deploymentNamespace } from './core/platform/deployment-namespace.ts';
import { registerIpRateLimits } from './domain/limits/ip-rate-limits.ts';
import { LogWriter } from './domain/logs/log-writer.repository.ts';
import { LazyChildLogger, type Logger } from './core/platform/logger.ts';
import { registerMetricsRoute } from './core/http/metrics.routes.ts';
import { Metrics } from './core/platform/metrics.ts';
import { openTracing } from './core/platform/tracing/tracing.ts';
import { OptionRepository } from './domain/options/option.repository.ts';
import { OptionStore } from './domain/options/option-store.ts';
import { outgoingRequestsFor } from './core/platform/outgoing/outgoing-from-options.ts';
import { turnstileConfigured } from './entry/api/verification/turnstile.ts';
import { registerTaskRelays } from './entry/tasks/task-module.ts';
import { registerMatchedRoute } from './core/http/matched-route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The wired services, for tests and for the shutdown sequence. */
    switchboard: { context: AppContext; routes: DeclaredRoute[] };
  }
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Builds the whole HTTP application from its dependencies. `main.ts` calls it with real resources;
 * tests call it with a fresh database each. Nothing here reads the environment or opens sockets.
 */
export async function buildApp(dependencies: AppDependencies): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: dependencies.logger as FastifyBaseLogger,
    genReqId: generateRequestId,
    childLoggerFactory: (logger, bindings) => new LazyChildLogger(logger as Logger, bindings) as unknown as FastifyBaseLogger,
    requestIdHeader: false,
    // One access line per request comes from the onResponse hook below; Fastify's own two are off.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: dependencies.config.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  // Before Fastify closes the server: what server.close() would wait for (connections opened and not
  // yet used, kept-alive ones whose answer is in flight) ends, so a stop takes as long as its answers,
  // and answers still going near the shutdown deadline are cut, to be billed for what they delivered.
  const connections = drainConnectionsOnClose(app.server, {
    cutAfterMs: answerGraceMs(dependencies.config.shutdownTimeoutSeconds),
    onCut: (count) =>
      dependencies.logger.warn({ connections: count }, 'answers still going at the end of the shutdown grace were cut; each is billed for what it delivered'),
  });
  app.addHook('preClose', (done) => {
    connections.closeConnections();
    done();
  });

  const shutdownTasks: Array<() => Promise<void>> = [];
  const options = new OptionStore(new OptionRepository(dependencies.database.db, dependencies.database.dialect), dependencies.bus);
  await options.initialise();
  const reloadTimer = setInterval(
    () => void options.reload().catch((error: unknown) => app.log.warn({ err: error }, 'option reload failed')),
    dependencies.config.syncFrequencySeconds * 1000,
  );
  reloadTimer.unref();

  const outgoing = outgoingRequestsFor(options);
  shutdownTasks.push(() => outgoing.close());
  const authRepository = new AuthRepository(dependencies.database.db);
  // A worker of a machine without Redis has its limits counted by the primary, for the whole machine.
  const link = PrimaryLink.get();
  const limits = openLimitStore(dependencies.redis, dependencies.logger, {
    ...(link ? { machine: new PrimaryLimitStore(link), machineWorkers: dependencies.config.machineWorkers } : {}),
    namespace: deploymentNamespace(dependencies.config.sqlDsn, dependencies.config.sqlitePath),
  });
  shutdownTasks.push(async () => limits.close());
  const context: AppContext = {
    ...dependencies,
    options,
    sessions: new SessionService(authRepository, dependencies.clock),
    authRepository,
    logWriter: new LogWriter(dependencies.logDatabase, dependencies.clock),
    version: packageJson.version,
    startTime: dependencies.config.startedAt,
    // A worker of several answers a scrape with the figures the primary adds up from every worker.
    ...(dependencies.config.metricsToken
      ? { metrics: await Metrics.create(link ? async () => (await link.request((id) => ({ sb: 'metrics', id }))) as string : undefined) }
      : {}),
    // Before any route: its request spans attach to the routes as they are registered.
    ...(dependencies.config.tracing ? { tracing: await openTracing(app, dependencies.config.tracing, dependencies.logger, packageJson.version) } : {}),
    outgoing,
    limitStore: limits.store,
    balanceChanges: new BalanceChanges(),
    onShutdown: (task) => shutdownTasks.push(task),
  };
  registerMatchedRoute(app);
  const routes = trackRouteAccess(app);
  app.decorate('switchboard', { context, routes });

  // Callback-style hooks: on every request an async one costs a promise each. `nosniff` on every
  // answer (the JSON of /api included): a browser must never render one as another type.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(requestIdHeader, request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  const writeAccessLine = createAccessLog(dependencies.logger);
  if (writeAccessLine) {
    app.addHook('onResponse', (request, reply, done) => {
      writeAccessLine(request, reply);
      done();
    });
  }
  app.addHook('onClose', async () => {
    clearInterval(reloadTimer);
    for (const task of shutdownTasks) await task();
  });

  // Before any route: the limits attach their hooks to the routes they limit as those are registered.
  registerIpRateLimits(app, {
    config: dependencies.config.rateLimits,
    store: limits.store,
    clock: dependencies.clock,
    humanCheckConfigured: () => turnstileConfigured(options),
  });
  registerErrorHandling(app);
  await registerAuthentication(app, {
    secret: dependencies.config.sessionSecret,
    sessions: context.sessions,
    repository: authRepository,
    clock: dependencies.clock,
  });
  registerStatusRoutes(app, context);
  registerMetricsRoute(app, context.metrics, dependencies.config.metricsToken);
  const accounts = await registerAccountRoutes(app, context);
  await registerOperationsRoutes(app, context, accounts);
  await composeRelay(app, context, [(scope, services) => registerTaskRelays(scope, services, context)]);
  await registerConsoleAssets(app, dependencies.config.webDistPath || defaultWebDist, () => ({ telegramLogin: options.getBoolean('TelegramOAuthEnabled') }));
  // Last on shutdown: the spans of the final flushes go out too.
  if (context.tracing) shutdownTasks.push(context.tracing.shutdown);
  await dependencies.bus.ready();
  return app;
}
