import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';
import type { ChargeJournal, JournaledCharge } from './domain/billing/charge-journal.ts';
import type { PendingDeltas } from './domain/billing/pending-deltas.ts';
import { QuotaFlusher } from './domain/billing/quota-flusher.ts';
import { openQuotaJournal } from './domain/billing/quota-journal-setup.ts';
import { ExpectedUsage } from './domain/billing/expected-usage.ts';
import { QuotaJournalRepository } from './domain/billing/quota-journal.repository.ts';
import { QuotaLedger } from './domain/billing/quota-ledger.ts';
import { RedisSpendCoordinator } from './domain/billing/redis-spend-coordinator.ts';
import { LocalSpendCoordinator, type SpendCoordinator } from './domain/billing/spend-coordinator.ts';
import { SpendGuard, tokenBalanceKey, userBalanceKey } from './domain/billing/spend-guard.ts';
import type { DepartedCharge } from './domain/billing/spend-lease-book.ts';
import { deploymentNamespace } from './core/platform/deployment-namespace.ts';
import { createPrimarySpendCoordinator } from './domain/cluster/primary-spend-coordinator.ts';
import { PrimaryLink } from './domain/cluster/primary-link.ts';
import { QuotaRepository } from './domain/billing/quota.repository.ts';
import { createRelayBudgets } from './domain/budgets/budget-module.ts';
import { decodeQuotaBroadcast, encodeQuotaBroadcast } from './domain/billing/quota-broadcast.ts';
import { RelayLimits } from './domain/limits/relay-limits.ts';
import { startPayloadLogging } from './domain/logs/payloads/payload-logging.ts';
import { Mailer } from './core/platform/mailer.ts';
import { changeTopics } from './core/platform/change-topics.ts';
import { randomAlphanumeric } from './core/platform/random.ts';
import { ChannelCache } from './entry/relay/cache/channel-cache.ts';
import { RelayCacheRepository } from './entry/relay/cache/relay-cache.repository.ts';
import { TokenCache } from './entry/relay/cache/token-cache.ts';
import { UserCache } from './entry/relay/cache/user-cache.ts';
import { ChannelHealth } from './entry/relay/channel-health/channel-health.ts';
import { ChannelStatusRepository } from './entry/relay/channel-health/channel-status.repository.ts';
import { registerBreakerMetrics } from './entry/relay/circuit-breaker/breaker-metrics.ts';
import { ChannelBreakers } from './entry/relay/circuit-breaker/channel-breakers.ts';
import { shareBreakersThroughRedis } from './entry/relay/circuit-breaker/redis-breaker-sync.ts';
import { KeyGuessGuard } from './entry/relay/pipeline/key-guess-guard.ts';
import { SensitiveWords } from './entry/relay/pipeline/sensitive-words.ts';
import { registerJournalMetrics, registerRelayMetrics } from './entry/relay/relay-metrics.ts';
import { registerRelayRoutes, type RelayScopeRoutes } from './entry/relay/relay-module.ts';
import type { RelayServices } from './entry/relay/relay-services.ts';
import { MemoryAnswerStore } from './entry/relay/response-cache/answer-store.ts';
import { CacheSavingsRepository } from './entry/relay/response-cache/cache-savings.repository.ts';
import { RedisAnswerStore } from './entry/relay/response-cache/redis-answer-store.ts';
import { ResponseCache } from './entry/relay/response-cache/response-cache.ts';
import { openChannelRouter } from './entry/relay/routing/open-channel-router.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The relay's services (tests flush the ledger and reload caches through it). */
    relay: RelayServices;
  }
}

/*
 * The relay's composition: it takes the whole application context (it is composition, like app.ts)
 * and hands each service, and the relay's routes, only the members they use.
 */

/** Queued quota and log writes reach the database within this time. */
const flushIntervalMs = 500;
/** How long a stop waits for requests in flight to settle before its last write (they settle within milliseconds of being cut). */
const settleWaitMs = 2000;
/** Bytes of answers one process keeps when there is no Redis; the least recently used go first. */
const memoryCacheBytes = 64 * 1024 * 1024;

interface QuotaWiring {
  readonly instanceId: string;
  /** The deployment's Redis key prefix. */
  readonly namespace: string;
  readonly spend: SpendCoordinator;
  readonly journal: ChargeJournal | undefined;
  readonly publishWritten: (batch: PendingDeltas) => void;
}

/**
 * Where this process takes its leases on balances: Redis between instances, the primary between the
 * workers of a machine, its own book when it is alone.
 */
function openSpendCoordinator(context: AppContext, namespace: string, instanceId: string): SpendCoordinator {
  if (context.redis) return new RedisSpendCoordinator(context.redis, { namespace, holder: `${instanceId}.${process.pid}`, logger: context.logger });
  const link = PrimaryLink.get();
  return link ? createPrimarySpendCoordinator(link) : new LocalSpendCoordinator();
}

/** The response cache: shared through Redis between instances when configured, else this process's memory. */
function openResponseCache(context: AppContext, namespace: string): ResponseCache {
  const store = context.redis ? new RedisAnswerStore(context.redis, namespace) : new MemoryAnswerStore(memoryCacheBytes, () => context.clock.now());
  return new ResponseCache(context.options, store, (error) => context.logger.warn({ err: error }, 'response cache store failed'));
}

/** A replayed charge as the spending book counts it: on its token's and its user's balance. */
function departedCharge(charge: JournaledCharge): DepartedCharge {
  const keys = charge.tokenId > 0 ? [tokenBalanceKey(charge.tokenId), userBalanceKey(charge.userId)] : [userBalanceKey(charge.userId)];
  return { seq: charge.seq, keys, quota: charge.quota };
}

/** The caches follow changes made on any process: rows edited in the console, balances moved, batches written elsewhere. */
function followChanges(
  context: AppContext,
  instanceId: string,
  { ledger, channels, tokens, users }: Pick<RelayServices, 'ledger' | 'channels' | 'tokens' | 'users'>,
): void {
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
}

function wireServices(context: AppContext, { instanceId, namespace, spend, journal, publishWritten }: QuotaWiring): RelayServices {
  const { options, clock, logger } = context;
  const ledger = new QuotaLedger(journal, new SpendGuard(spend));
  const journalMarks = new QuotaJournalRepository(context.database, context.logDatabase);
  const budgets = createRelayBudgets(context, ledger, instanceId);
  const repository = new RelayCacheRepository(context.database.db);
  // A stored override the console would refuse (a moved-over database) is ignored, said once per load, naming no value.
  const channels = new ChannelCache(repository, (channelId, fields) => logger.warn({ channelId, fields }, 'channel request shaping ignored: invalid JSON'));
  const tokens = new TokenCache(repository, ledger, () => clock.now(), context.config.tokenCacheSize);
  const users = new UserCache(repository, ledger, context.config.userCacheSize);
  const flusher = new QuotaFlusher({
    ledger,
    repository: new QuotaRepository(context.database),
    logWriter: context.logWriter,
    clock,
    logger,
    onWritten: publishWritten,
    ...(journal ? { journal, logMark: (name: string) => journalMarks.logMark(name, clock.unixSeconds()) } : {}),
  });
  const mailer = new Mailer(options);
  const statusRepository = new ChannelStatusRepository(context.database.db);
  const health = new ChannelHealth({
    channels,
    repository: statusRepository,
    options,
    bus: context.bus,
    clock,
    logger,
    notify: async (subject, html) => {
      if (!options.get('SMTPServer')) return;
      const to = await statusRepository.rootEmail();
      if (to) await mailer.send({ to, subject, html });
    },
  });
  followChanges(context, instanceId, { ledger, channels, tokens, users });

  const streamMs = context.config.streamingTimeoutSeconds * 1000;
  const relayMs = context.config.relayTimeoutSeconds * 1000;
  return {
    options,
    clock,
    tracing: context.tracing,
    outgoing: context.outgoing,
    startTime: context.startTime,
    tokens,
    keyGuesses: new KeyGuessGuard(clock),
    users,
    channels,
    ledger,
    expectedUsage: new ExpectedUsage(),
    budgets,
    flusher,
    health,
    breakers: new ChannelBreakers({ options, clock }),
    router: openChannelRouter({ options, clock, redis: context.redis, namespace }, instanceId),
    sensitive: new SensitiveWords(options),
    limits: new RelayLimits({ store: context.limitStore, options, clock }),
    payloads: startPayloadLogging(context),
    responseCache: openResponseCache(context, namespace),
    chargesDurable: () => journal?.writable ?? true,
    random: Math.random,
    timeouts: { headersMs: relayMs > 0 ? relayMs : streamMs, streamMs, relayMs, firstByteMs: context.config.firstByteTimeoutSeconds * 1000 },
  };
}

/**
 * The relay: its services wired from the context (quota journal replayed first, caches loaded, the
 * flusher and resync started, their shutdown registered), then its routes and the routes passed in
 * (the task relays, which build on the relay).
 */
export async function composeRelay(app: FastifyInstance, context: AppContext, besideRelay: readonly RelayScopeRoutes[] = []): Promise<RelayServices> {
  const instanceId = randomAlphanumeric(12);
  const namespace = deploymentNamespace(context.config.sqlDsn, context.config.sqlitePath);
  // Other processes hold these rows in memory too (the other workers of the machine, other instances
  // through Redis): tell them what was written. A lone process hears only itself and ignores it.
  const publishWritten = (batch: PendingDeltas) => {
    void context.bus.announce(changeTopics.quota, encodeQuotaBroadcast(instanceId, batch)).catch(() => undefined);
  };
  const spend = openSpendCoordinator(context, namespace, instanceId);
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
  const services = wireServices(context, { instanceId, namespace, spend, journal: quotaJournal?.journal, publishWritten });
  if (context.metrics && quotaJournal) registerJournalMetrics(context.metrics, quotaJournal.journal);
  // Tokens and users are read at their first use, not here: start-up does not grow with their tables.
  await Promise.all([services.channels.reload(), services.budgets.book.loadAll()]);
  services.flusher.start(flushIntervalMs);
  const resync = setInterval(() => {
    void Promise.all([services.channels.reload(), services.tokens.reloadCached(), services.users.reloadCached(), services.budgets.book.loadAll()]).catch(
      (error: unknown) => context.logger.warn({ err: error }, 'relay cache resync failed'),
    );
  }, config.syncFrequencySeconds * 1000);
  resync.unref();
  context.onShutdown(async () => {
    clearInterval(resync);
    services.router.close();
    // Requests cut at the end of the shutdown grace settle a moment after their connections closed: their
    // charges go into the last write, not into a journal left for the next start.
    if (!(await services.ledger.whenNothingHeld(settleWaitMs))) {
      context.logger.warn({ requests: services.ledger.requestsHolding }, 'requests still held quota when the gateway stopped: nothing is charged for them');
    }
    // A channel disabled a moment ago must stay disabled after the restart.
    await services.health.settled();
    await services.flusher.stop();
    await quotaJournal?.close();
  });
  app.decorate('relay', services);
  if (context.metrics) registerRelayMetrics(context.metrics, services.ledger, services.flusher);
  // With Redis every instance skips a channel once any instance opened its breaker.
  if (context.redis) await shareBreakersThroughRedis(services.breakers, context.redis, context.bus, context.clock, context.logger);
  if (context.metrics) registerBreakerMetrics(context.metrics, services.breakers, services.channels);
  await registerRelayRoutes(
    app,
    services,
    {
      bus: context.bus,
      cacheSavings: new CacheSavingsRepository(context.logDatabase.db),
      journal: quotaJournal?.journal,
      logins: { sessions: context.sessions, repository: context.authRepository, clock: context.clock },
      channelHealth: context,
    },
    besideRelay,
  );
  return services;
}
