import type { Clock } from '../../core/platform/clock.ts';
import type { OutgoingRequests } from '../../core/platform/outgoing/outgoing-requests.ts';
import type { Tracing } from '../../core/platform/tracing/tracing.ts';
import type { OptionStore } from '../../domain/options/option-store.ts';
import type { ExpectedUsage } from '../../domain/billing/expected-usage.ts';
import type { QuotaFlusher } from '../../domain/billing/quota-flusher.ts';
import type { QuotaLedger } from '../../domain/billing/quota-ledger.ts';
import type { RelayBudgets } from '../../domain/budgets/budget-module.ts';
import type { RelayLimits } from '../../domain/limits/relay-limits.ts';
import type { ChannelCache } from './cache/channel-cache.ts';
import type { TokenCache } from './cache/token-cache.ts';
import type { UserCache } from './cache/user-cache.ts';
import type { ChannelHealth } from './channel-health/channel-health.ts';
import type { ChannelBreakers } from './circuit-breaker/channel-breakers.ts';
import type { ChannelRouter } from './routing/channel-router.ts';
import type { KeyGuessGuard } from './pipeline/key-guess-guard.ts';
import type { SensitiveWords } from './pipeline/sensitive-words.ts';
import type { PayloadLogging } from '../../domain/logs/payloads/payload-logging.ts';
import type { ResponseCache } from './response-cache/response-cache.ts';

/**
 * The relay's wired services, built once by `compose-relay.ts`. The application's own services the
 * relay's requests read are named here one by one (never the whole application context), so a reader
 * sees what the relay touches; what only its set-up needs (databases, config, shutdown) stays in the
 * composition.
 */
export interface RelayServices {
  /** Runtime settings (prices, retries, switches), read per request. */
  readonly options: OptionStore;
  readonly clock: Clock;
  /** Present when OpenTelemetry tracing is configured: the relay enriches its request spans. */
  readonly tracing?: Tracing;
  /** Requests to addresses users and administrators typed (task images, alert webhooks), under fetch_setting. */
  readonly outgoing: OutgoingRequests;
  /** When this process started (Unix seconds): the `created` of `/v1/models`. */
  readonly startTime: number;
  readonly tokens: TokenCache;
  /** Unknown relay keys per address: past the limit, lookups of keys not in memory wait. */
  readonly keyGuesses: KeyGuessGuard;
  readonly users: UserCache;
  readonly channels: ChannelCache;
  readonly ledger: QuotaLedger;
  /** What each model's answers have used lately: a request's claim near the edge of a balance. */
  readonly expectedUsage: ExpectedUsage;
  /** Spending budgets held beside the quota, and the balance and budget alerts. */
  readonly budgets: RelayBudgets;
  readonly flusher: QuotaFlusher;
  readonly health: ChannelHealth;
  /** Circuit breakers per channel and key: which to skip, which to probe. */
  readonly breakers: ChannelBreakers;
  /** The channel and key of each attempt by the group's routing strategy (weighted, least-busy, lowest-latency, usage-aware). */
  readonly router: ChannelRouter;
  readonly sensitive: SensitiveWords;
  /** Request limits (per user, per token), checked before the upstream is called. */
  readonly limits: RelayLimits;
  /** Request and response bodies stored for the requests they are logged for (off by default). */
  readonly payloads: PayloadLogging;
  /** Answers kept by `ResponseCacheRules` (off while no rule exists): in memory, or in Redis when configured. */
  readonly responseCache: ResponseCache;
  /** False while settled charges cannot be written to the quota journal (a full or read-only disk). */
  readonly chargesDurable: () => boolean;
  readonly random: () => number;
  /** `firstByteMs`: RELAY_FIRST_BYTE_TIMEOUT (0 = none), unless the channel sets its own. */
  readonly timeouts: { readonly headersMs: number; readonly streamMs: number; readonly relayMs: number; readonly firstByteMs: number };
}
