import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import type { ChargeJournal, JournaledCharge } from '../../domain/billing/charge-journal.ts';
import type { PendingDeltas } from '../../domain/billing/pending-deltas.ts';
import { QuotaFlusher } from '../../domain/billing/quota-flusher.ts';
import { openQuotaJournal } from '../../domain/billing/quota-journal-setup.ts';
import { ExpectedUsage } from '../../domain/billing/expected-usage.ts';
import { QuotaJournalRepository } from '../../domain/billing/quota-journal.repository.ts';
import { QuotaLedger } from '../../domain/billing/quota-ledger.ts';
import { RedisSpendCoordinator } from '../../domain/billing/redis-spend-coordinator.ts';
import { LocalSpendCoordinator, type SpendCoordinator } from '../../domain/billing/spend-coordinator.ts';
import { SpendGuard, tokenBalanceKey, userBalanceKey } from '../../domain/billing/spend-guard.ts';
import type { DepartedCharge } from '../../domain/billing/spend-lease-book.ts';
import { deploymentNamespace } from '../../core/platform/deployment-namespace.ts';
import { createPrimarySpendCoordinator } from '../../domain/cluster/primary-spend.ts';
import { PrimaryLink } from '../../domain/cluster/primary-link.ts';
import { QuotaRepository } from '../../domain/billing/quota.repository.ts';
import { createRelayBudgets, registerBudgetModule } from '../../domain/budgets/budget-module.ts';
import { decodeQuotaBroadcast, encodeQuotaBroadcast } from '../../domain/billing/quota-broadcast.ts';
import { RelayLimits } from '../../domain/limits/relay-limits.ts';
import { Mailer } from '../../core/platform/mailer.ts';
import type { Metrics } from '../../core/platform/metrics.ts';
import { changeTopics } from '../../core/platform/change-topics.ts';
import { randomAlphanumeric } from '../../core/platform/random.ts';
import { ChannelCache } from './cache/channel-cache.ts';
import { RelayCacheRepository } from './cache/relay-cache.repository.ts';
import { TokenCache } from './cache/token-cache.ts';
import { UserCache } from './cache/user-cache.ts';
import { ChannelHealth } from './channel-health/channel-health.ts';
import { ChannelStatusRepository } from './channel-health/channel-status.repository.ts';
import { registerChannelHealthModule } from './channel-health/channel-health-module.ts';
import { registerBreakerMetrics } from './circuit-breaker/breaker-metrics.ts';
import { registerBreakerRoutes } from './circuit-breaker/breaker.routes.ts';
import { registerJournalHealthRoute } from './journal-health.routes.ts';
import { readRelayBody } from './relay-body-parser.ts';
import { ChannelBreakers } from './circuit-breaker/channel-breakers.ts';
import { shareBreakersThroughRedis } from './circuit-breaker/redis-breaker-sync.ts';
import { registerAnthropicEntryRoutes } from './entry/anthropic/messages.routes.ts';
import { registerGeminiEntryRoutes } from './entry/gemini/generate.routes.ts';
import { KeyGuessGuard } from './pipeline/key-guess-guard.ts';
import { openChannelRouter } from './routing/open-channel-router.ts';
import { SensitiveWords } from './pipeline/sensitive-words.ts';
import { startPayloadLogging } from '../../domain/logs/payloads/payload-logging.ts';
import type { RelayServices } from './relay-services.ts';
import { registerBillingDashboardRoutes } from './routes/billing-dashboard.routes.ts';
import { registerModelRoutes } from './routes/models.routes.ts';
import { registerPlaygroundRoutes } from './routes/playground.routes.ts';
import { registerRealtimeRoute } from './realtime/realtime.routes.ts';
import { registerRelayEndpoints } from './routes/relay.routes.ts';
import { MemoryAnswerStore } from './response-cache/answer-store.ts';
import { RedisAnswerStore } from './response-cache/redis-answer-store.ts';
import { ResponseCache } from './response-cache/response-cache.ts';
import { registerResponseCacheRoutes } from './response-cache/response-cache.routes.ts';
import { CacheSavingsRepository } from './response-cache/cache-savings.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The relay's services (tests flush the ledger and reload caches through it). */
    relay: RelayServices;
  }
}

/** Queued quota and log writes reach the database within this time. */
const flushIntervalMs = 500;
/** Relay bodies may carry base64 images and audio files. */
const relayBodyLimit = 64 * 1024 * 1024;

interface QuotaWiring {
  readonly instanceId: string;
  readonly spend: SpendCoordinator;
  readonly journal: ChargeJournal | undefined;
  readonly publishWritten: (batch: PendingDeltas) => void;
}

/**
 * Where this process takes its leases on balances: Redis between instances, the primary between the
 * workers of a machine, its own book when it is alone.
 */
function openSpendCoordinator(context: AppContext, instanceId: string): SpendCoordinator {
  if (context.redis) {
    const namespace = deploymentNamespace(context.config.sqlDsn, context.config.sqlitePath);
    return new RedisSpendCoordinator(context.redis, { namespace, holder: `${instanceId}.${process.pid}`, logger: context.logger });
  }
  const link = PrimaryLink.get();
  return link ? createPrimarySpendCoordinator(link) : new LocalSpendCoordinator();
}

/** Bytes of answers one process keeps when there is no Redis; the least recently used go first. */
const memoryCacheBytes = 64 * 1024 * 1024;

/** The response cache: shared through Redis between instances when configured, else this process's memory. */
function openResponseCache(context: AppContext): ResponseCache {
  const store = context.redis
    ? new RedisAnswerStore(context.redis, deploymentNamespace(context.config.sqlDsn, context.config.sqlitePath))
    : new MemoryAnswerStore(memoryCacheBytes, () => context.clock.now());
  return new ResponseCache(context.options, store, (error) => context.logger.warn({ err: error }, 'response cache store failed'));
}

/** A replayed charge as the spending book counts it: on its token's and its user's balance. */
function departedCharge(charge: JournaledCharge): DepartedCharge {
  const keys = charge.tokenId > 0 ? [tokenBalanceKey(charge.tokenId), userBalanceKey(charge.userId)] : [userBalanceKey(charge.userId)];
  return { seq: charge.seq, keys, quota: charge.quota };
}

function wireServices(context: AppContext, { instanceId, spend, journal, publishWritten }: QuotaWiring): RelayServices {
  const ledger = new QuotaLedger(journal, new SpendGuard(spend));
  const journalMarks = new QuotaJournalRepository(context.database, context.logDatabase);
  const budgets = createRelayBudgets(context, ledger, instanceId);
  const repository = new RelayCacheRepository(context.database.db);
  // A stored override the console would refuse (a moved-over database) is ignored, said once per load, naming no value.
  const channels = new ChannelCache(repository, (channelId, fields) =>
    context.logger.warn({ channelId, fields }, 'channel request shaping ignored: invalid JSON'),
  );
  const tokens = new TokenCache(repository, ledger, () => context.clock.now(), context.config.tokenCacheSize);
  const users = new UserCache(repository, ledger, context.config.userCacheSize);
  const flusher = new QuotaFlusher({
    ledger,
    repository: new QuotaRepository(context.database),
    logWriter: context.logWriter,
    clock: context.clock,
    logger: context.logger,
    onWritten: publishWritten,
    ...(journal ? { journal, logMark: (name: string) => journalMarks.logMark(name, context.clock.unixSeconds()) } : {}),
  });
  const mailer = new Mailer(context.options);
  const statusRepository = new ChannelStatusRepository(context.database.db);
  const health = new ChannelHealth({
    channels,
    repository: statusRepository,
    options: context.options,
    bus: context.bus,
    clock: context.clock,
    logger: context.logger,
    notify: async (subject, html) => {
      if (!context.options.get('SMTPServer')) return;
      const to = await statusRepository.rootEmail();
      if (to) await mailer.send({ to, subject, html });
    },
  });

  // Each handler resolves once its cache holds the new rows: the bus confirms the change only then.
  const warnReload = (what: string) => (error: unknown) => context.logger.warn({ err: error }, `${what} reload failed`);
  context.bus.subscribe(changeTopics.channels, () => channels.reload().catch(warnReload('channel')));
  // A balance may have changed from outside (console edit, top-up): what this process leases of it goes
  // back; the process that wrote the change tells the spending guard by how much (context.balanceChanges).
  const tokenReloaded = (id: number) => ledger.balanceReloaded('token', id);
  const userReloaded = (id: number) => ledger.balanceReloaded('user', id);
  context.balanceChanges.listen((owner, id, delta) => ledger.balanceAdjusted(owner, id, delta));
  context.bus.subscribe(changeTopics.tokens, (payload) =>
    (payload === '*' || !Number(payload) ? tokens.reloadCached() : tokens.reload(Number(payload)).then(() => tokenReloaded(Number(payload)))).catch(
      warnReload('token'),
    ),
  );
  context.bus.subscribe(changeTopics.users, (payload) =>
    (payload === '*' || !Number(payload) ? users.reloadCached() : users.reload(Number(payload)).then(() => userReloaded(Number(payload)))).catch(
      warnReload('user'),
    ),
  );
  context.bus.subscribe(changeTopics.quota, (payload) => {
    const broadcast = decodeQuotaBroadcast(payload);
    if (!broadcast || broadcast.origin === instanceId) return;
    for (const [id, remain, used] of broadcast.tokens) tokens.applyRemoteDelta(id, remain, used);
    for (const [id, quota, used, requests] of broadcast.users) users.applyRemoteDelta(id, quota, used, requests);
  });

  const streamMs = context.config.streamingTimeoutSeconds * 1000;
  const relayMs = context.config.relayTimeoutSeconds * 1000;
  return {
    context,
    tokens,
    keyGuesses: new KeyGuessGuard(context.clock),
    users,
    channels,
    ledger,
    expectedUsage: new ExpectedUsage(),
    budgets,
    flusher,
    health,
    breakers: new ChannelBreakers({ options: context.options, clock: context.clock }),
    router: openChannelRouter(context, instanceId),
    sensitive: new SensitiveWords(context.options),
    limits: new RelayLimits({ store: context.limitStore, options: context.options, clock: context.clock }),
    payloads: startPayloadLogging(context),
    responseCache: openResponseCache(context),
    chargesDurable: () => journal?.writable ?? true,
    random: Math.random,
    timeouts: { headersMs: relayMs > 0 ? relayMs : streamMs, streamMs, relayMs, firstByteMs: context.config.firstByteTimeoutSeconds * 1000 },
  };
}

function registerRelayMetrics(metrics: Metrics, services: RelayServices): void {
  const { ledger, flusher } = services;
  metrics.counter('switchboard_relay_requests_charged_total', 'Relayed requests answered and charged', () => ledger.totals.settled);
  metrics.counter(
    'switchboard_relay_requests_refunded_total',
    'Relayed requests whose hold was given back (failed, refused upstream, caller gone before the upstream was called)',
    () => ledger.totals.refunded,
  );
  metrics.counter('switchboard_quota_charged_total', 'Quota units charged for relayed requests', () => ledger.totals.chargedQuota);
  metrics.gauge('switchboard_quota_held', 'Quota units held by requests in flight', () => ledger.totals.heldQuota);
  metrics.gauge('switchboard_log_rows_unwritten', 'Consume log rows queued for the database', () => ledger.unwrittenLogs + flusher.backlog);
}

/** A journal that cannot be written (a full disk) leaves charges in memory only until the flusher writes them: the operator must see it. */
function registerJournalMetrics(metrics: Metrics, journal: ChargeJournal): void {
  metrics.gauge(
    'switchboard_quota_journal_writable',
    '1 while charges are written to the quota journal before their answers complete; 0 while they cannot be (a crash would then lose those not yet in the database)',
    () => (journal.writable ? 1 : 0),
    'min',
  );
  metrics.counter('switchboard_quota_journal_failed_writes_total', 'Writes to the quota journal that failed', () => journal.failedWrites);
}

/** Relay routes whose caller is the console's logged-in user (matched pattern, never the URL text). */
function isSessionAuthenticated(routePattern: string | undefined): boolean {
  return routePattern?.startsWith('/pg/') === true;
}

/**
 * Routes served beside the relay's own, in its scope (its body parser and CORS) and on its services:
 * the task relays (/mj, /suno). app.ts passes them in, because tasks/ builds on the relay.
 */
export type RelayScopeRoutes = (scope: FastifyInstance, services: RelayServices) => void;

/** The relay: /v1, /pg and the legacy billing routes, the routes passed in (the task relays), plus the channel test endpoints. */
export async function registerRelayRoutes(app: FastifyInstance, context: AppContext, besideRelay: readonly RelayScopeRoutes[] = []): Promise<void> {
  const instanceId = randomAlphanumeric(12);
  // Other processes hold these rows in memory too (the other workers of the machine, other instances
  // through Redis): tell them what was written. A lone process hears only itself and ignores it.
  const publishWritten = (batch: PendingDeltas) => {
    void context.bus.announce(changeTopics.quota, encodeQuotaBroadcast(instanceId, batch)).catch(() => undefined);
  };
  const spend = openSpendCoordinator(context, instanceId);
  // Before the caches read a row: they must read the balances with the replayed charges in.
  const { config } = context;
  const quotaJournal = config.quotaJournalDir
    ? await openQuotaJournal({
        folder: config.quotaJournalDir,
        database: context.database,
        logDatabase: context.logDatabase,
        logWriter: context.logWriter,
        clock: context.clock,
        logger: context.logger,
        onReplayed: publishWritten,
        // The spending book the dead process held leases in learns what it spent and never reported.
        onAdopted: (journal, unwritten) => spend.journalReplayed?.(journal, unwritten.map(departedCharge)),
      })
    : undefined;
  if (quotaJournal) spend.journalOpened?.(quotaJournal.journal.name);
  const services = wireServices(context, { instanceId, spend, journal: quotaJournal?.journal, publishWritten });
  if (context.metrics && quotaJournal) registerJournalMetrics(context.metrics, quotaJournal.journal);
  // Tokens and users are read at their first use, not here: start-up does not grow with their tables.
  await Promise.all([services.channels.reload(), services.budgets.book.loadAll()]);
  services.flusher.start(flushIntervalMs);
  const resync = setInterval(() => {
    void Promise.all([services.channels.reload(), services.tokens.reloadCached(), services.users.reloadCached(), services.budgets.book.loadAll()]).catch(
      (error: unknown) => context.logger.warn({ err: error }, 'relay cache resync failed'),
    );
  }, context.config.syncFrequencySeconds * 1000);
  resync.unref();
  context.onShutdown(async () => {
    clearInterval(resync);
    services.router.close();
    // A channel disabled a moment ago must stay disabled after the restart.
    await services.health.settled();
    await services.flusher.stop();
    await quotaJournal?.close();
  });
  app.decorate('relay', services);
  if (context.metrics) registerRelayMetrics(context.metrics, services);
  // With Redis every instance skips a channel once any instance opened its breaker.
  if (context.redis) await shareBreakersThroughRedis(services.breakers, context.redis, context.bus, context.clock, context.logger);
  if (context.metrics) registerBreakerMetrics(context.metrics, services.breakers, services.channels);
  registerBreakerRoutes(app, services.breakers, services.channels);
  registerResponseCacheRoutes(app, services.responseCache, context.bus, new CacheSavingsRepository(context.logDatabase.db), context.clock);
  registerJournalHealthRoute(app, quotaJournal?.journal, context.options);

  registerChannelHealthModule(app, services);
  registerBudgetModule(app, services);
  // WebSocket sessions arrive as HTTP upgrades, outside Fastify's routing and body parsing.
  registerRealtimeRoute(app, services);
  await app.register(async (scope) => {
    // Relay bodies are kept as bytes: forwarded untouched, parsed once by the pipeline.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', readRelayBody(relayBodyLimit));
    // Key-authenticated routes may be called from any web page (chat front ends), as in new-api: the
    // key travels in a header, so any origin is allowed and credentials never are (a cookie-bearing
    // cross-site call gets nothing readable). The playground runs on the console's session cookie:
    // it is for the console's own origin only and answers no cross-origin request or preflight.
    scope.addHook('onRequest', async (request, reply) => {
      if (isSessionAuthenticated(request.routeOptions.url)) return;
      reply.header('access-control-allow-origin', '*');
      if (request.method === 'OPTIONS')
        reply.header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS').header('access-control-allow-headers', '*');
    });
    for (const path of ['/v1/*', '/dashboard/*']) scope.options(path, async (_request, reply) => reply.status(204).send());
    registerRelayEndpoints(scope, services);
    registerModelRoutes(scope, services);
    registerBillingDashboardRoutes(scope, services);
    registerPlaygroundRoutes(scope, services);
    registerAnthropicEntryRoutes(scope, services);
    registerGeminiEntryRoutes(scope, services);
    for (const register of besideRelay) register(scope, services);
  });
}
