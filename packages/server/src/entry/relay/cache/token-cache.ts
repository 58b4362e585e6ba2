import type { BlockList } from 'node:net';
import { TokenStatus } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import type { QuotaLedger, TokenBalance } from '../../../domain/billing/quota-ledger.ts';
import { tokenBalanceKey } from '../../../domain/billing/spend-guard.ts';
import { tokenRequestLimits, type TokenRequestLimits } from '../../../domain/limits/token-request-limits.ts';
import { parseAllowList } from './ip-allow-list.ts';
import type { TokenReads, TokenRow } from './relay-cache.repository.ts';
import { defaultTokenCacheSize } from '../../../core/config/cache-sizes.ts';
import { DetachedRecords } from './detached-records.ts';
import { idBatches } from './id-batches.ts';
import { LruMap } from './lru-map.ts';
import { ReloadFreshness } from '../../../core/platform/reload-freshness.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { readFallbackMap, type FallbackMap } from '../fallbacks/model-fallbacks.ts';

/** A relay API key as the hot path needs it. Balances are mutated in place by the quota ledger. */
export interface TokenRecord extends TokenBalance {
  readonly id: number;
  userId: number;
  key: string;
  status: number;
  name: string;
  expiredTime: number;
  unlimited: boolean;
  /** The allowed models, or undefined when the token has no model limits. */
  modelLimits: ReadonlySet<string> | undefined;
  allowIps: BlockList | undefined;
  group: string;
  /** The token's own request limits, or undefined when it has none (the relay then skips them). */
  requestLimits: TokenRequestLimits | undefined;
  /** Store this token's request and response bodies (logs/payloads/). */
  logPayload: boolean;
  /** The owner switched the response cache off for this token. */
  responseCacheOff: boolean;
  /** The token's own fallback chains, or undefined to use `ModelFallbacks`. */
  modelFallbacks: FallbackMap | undefined;
}

/** How long an unknown key is remembered as unknown, so guessing keys cannot load the database. */
const missMemoryMs = 10_000;
/** At most this many unknown keys are remembered; past it the memory starts over (a guesser then meets KeyGuessGuard). */
const missMemorySize = 10_000;

/** A token's stored fallback chains; empty or unreadable text means none of its own. */
function tokenFallbacks(stored: string | null | undefined): FallbackMap | undefined {
  if (!stored) return undefined;
  const parsed = safeParseJson(stored);
  const read = parsed.ok ? readFallbackMap(parsed.value) : undefined;
  return read?.ok && Object.keys(read.map).length > 0 ? read.map : undefined;
}

/**
 * The tokens in use, by key and by id: a token is read on its key's first use (simultaneous first uses
 * share one read), at most `capacity` are held and those unused longest go first (lru-map.ts). The change bus
 * reloads a held token at once (console edits on any instance); one not held is simply read at its
 * next use. Every SYNC_FREQUENCY what is held is read again, in batches by id. An unknown key is
 * looked up once, then remembered as unknown for a while.
 *
 * Money invariant: a record's balance is `stored row + ledger.unwrittenToken(id)` (charges queued or
 * being written, minus holds in flight) at the moment a row is applied, and afterwards it moves only
 * through the ledger, on that same object. The ledger keeps its queued deltas and holds by id, not
 * in the record, so dropping a record from the cache loses nothing: the flusher still writes what
 * was charged, exactly once. The one thing eviction could break is a request in flight that holds
 * the evicted object (its settlement moves that object); so evicted records are remembered weakly
 * (DetachedRecords) and a reload of the id re-uses the same object while anything still holds it,
 * recomputing `row + unwritten` in place, exactly as a change-bus reload of a held record does.
 * There is therefore never more than one live record per token id.
 */
export class TokenCache {
  /** The hot path's index, and the one that orders entries by use. */
  private readonly byKey: LruMap<string, TokenRecord>;
  private readonly byId = new Map<number, TokenRecord>();
  private readonly detached = new DetachedRecords<TokenRecord>();
  private readonly misses = new Map<string, number>();
  private readonly freshness = new ReloadFreshness();
  /** The newest re-read of each token in flight. */
  private readonly rereads = new Map<number, Promise<void>>();
  /** First reads by key in flight: simultaneous first uses of a key share one. */
  private readonly loading = new Map<string, Promise<TokenRecord | undefined>>();
  private readonly repository: TokenReads;
  private readonly ledger: QuotaLedger;
  private readonly now: () => number;

  constructor(repository: TokenReads, ledger: QuotaLedger, now: () => number, capacity = defaultTokenCacheSize) {
    this.repository = repository;
    this.ledger = ledger;
    this.now = now;
    this.byKey = new LruMap(capacity, (_key, record) => this.evicted(record));
  }

  /** Tokens held now (at most the capacity). */
  get size(): number {
    return this.byKey.size;
  }

  /**
   * Reads every held token again, in batches by id (SYNC_FREQUENCY, or a change-bus message naming no
   * token): changes made by other tools reach memory. Tokens not held are read at their next use.
   */
  async reloadCached(): Promise<void> {
    const since = this.freshness.wideReadStarting();
    try {
      await this.reloadBatches(since);
    } finally {
      this.freshness.wideReadDone(since);
    }
    this.misses.clear();
  }

  private async reloadBatches(since: number): Promise<void> {
    for (const batch of idBatches([...this.byId.keys()])) {
      const rows = await this.ledger.readConsistently(() => this.repository.tokensByIds(batch));
      const found = new Set<number>();
      for (const row of rows) {
        found.add(row.id);
        // Evicted meanwhile: it is read afresh at its next use.
        if (this.byId.has(row.id) && !this.freshness.isFresher(row.id, since)) this.apply(row);
      }
      for (const id of batch) if (!found.has(id) && !this.freshness.isFresher(id, since)) this.remove(id);
    }
  }

  /**
   * The token changed (change bus): a held token is read again, and this resolves once the newest
   * re-read of it started so far has applied. One not held is not read now; a first read of a key in
   * flight, which may have read the row before the change, reads it again.
   */
  async reload(id: number): Promise<void> {
    if (!this.byId.has(id) && !this.rereads.has(id)) {
      // A new token's key may be remembered as unknown.
      this.misses.clear();
      this.freshness.changed(id);
      return;
    }
    const reading = this.reread(id, this.freshness.rereading(id));
    this.rereads.set(id, reading);
    try {
      await reading;
    } finally {
      this.freshness.rereadDone(id);
      if (this.rereads.get(id) === reading) this.rereads.delete(id);
    }
  }

  private async reread(id: number, read: number): Promise<void> {
    const row = await this.ledger.readConsistently(() => this.repository.tokenById(id));
    // A later re-read started meanwhile: its row is the newer one; this one is done once it is.
    if (!this.freshness.isNewestReread(id, read)) return this.rereads.get(id);
    if (row) this.apply(row);
    else this.remove(id);
  }

  /**
   * The re-read of a held token in flight: a change to it reached this process and its new row is on
   * its way. A call that finds its token so waits for it (caller-auth.ts): the console may already
   * have answered, since the primary answers without a worker that confirms late (a loaded machine,
   * a re-read queued behind this worker's batch write), and that worker must not serve the old row.
   */
  rereadOf(id: number): Promise<void> | undefined {
    return this.rereads.size === 0 ? undefined : this.rereads.get(id);
  }

  /**
   * An enabled token found past its expiry becomes "expired", here and in the database (in the
   * background; a failed write is retried after the next full reload). Exhaustion is not recorded
   * this way: a balance at zero may only be held by requests in flight that will refund.
   */
  markExpired(token: TokenRecord): void {
    if (token.status !== TokenStatus.enabled) return;
    token.status = TokenStatus.expired;
    void this.repository.markTokenExpired(token.id).catch(() => undefined);
  }

  /** The token of a key from memory only (the hot path); marks it as used. */
  get(key: string): TokenRecord | undefined {
    return this.byKey.get(key);
  }

  /** A held token by id, without marking it as used. */
  getById(id: number): TokenRecord | undefined {
    return this.byId.get(id);
  }

  /** The token of a key: from memory, else one database read shared by the simultaneous callers; an unknown key is remembered. */
  lookup(key: string): Promise<TokenRecord | undefined> {
    const cached = this.byKey.get(key);
    if (cached) return Promise.resolve(cached);
    const missedAt = this.misses.get(key);
    if (missedAt !== undefined && this.now() - missedAt < missMemoryMs) return Promise.resolve(undefined);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const loading = this.load(key).finally(() => this.loading.delete(key));
    this.loading.set(key, loading);
    return loading;
  }

  private async load(key: string): Promise<TokenRecord | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const since = this.freshness.wideReadStarting();
      try {
        const row = await this.ledger.readConsistently(() => this.repository.tokenByKey(key));
        // The token changed while it was being read (the bus named it): the row may predate the change.
        if (row && this.freshness.isFresher(row.id, since) && attempt < 3) continue;
        if (row) return this.apply(row);
      } finally {
        this.freshness.wideReadDone(since);
      }
      if (this.misses.size >= missMemorySize) this.misses.clear();
      this.misses.set(key, this.now());
      return undefined;
    }
  }

  /**
   * Applies another process's written movements (a token not held reads them with its row). A read of
   * the token in flight may have read the row before that write: a wide read learns it was changed
   * (a first read then reads again, a periodic reload leaves the record as moved here), a re-read is
   * followed by another.
   */
  applyRemoteDelta(id: number, remain: number, used: number): void {
    this.freshness.changed(id);
    if (this.rereads.has(id)) void this.reload(id).catch(() => undefined);
    const record = this.byId.get(id);
    if (!record) return;
    record.remainQuota += remain;
    record.usedQuota += used;
  }

  private apply(row: TokenRow): TokenRecord {
    const unwritten = this.ledger.unwrittenToken(row.id);
    const limitsEnabled = toBoolean(row.model_limits_enabled);
    const fields = {
      userId: row.user_id,
      key: row.key,
      status: row.status,
      name: row.name,
      expiredTime: row.expired_time,
      remainQuota: row.remain_quota + unwritten.remain,
      usedQuota: row.used_quota + unwritten.used,
      unlimited: toBoolean(row.unlimited_quota),
      modelLimits: limitsEnabled
        ? new Set(
            (row.model_limits ?? '')
              .split(',')
              .map((model) => model.trim())
              .filter(Boolean),
          )
        : undefined,
      allowIps: parseAllowList(row.allow_ips),
      group: row.group ?? '',
      requestLimits: tokenRequestLimits(row),
      logPayload: toBoolean(row.log_payload),
      responseCacheOff: toBoolean(row.response_cache_off),
      modelFallbacks: tokenFallbacks(row.model_fallbacks),
    };
    // The held record, else an evicted one a request in flight still holds (see the invariant above).
    this.misses.delete(row.key);
    const held = this.byId.get(row.id);
    if (held) {
      // A reload is not a use: the entry keeps its place in the eviction order unless its key changed.
      if (held.key !== row.key) {
        this.byKey.delete(held.key);
        this.byKey.set(row.key, held);
      }
      // In place: reservations in flight hold this object and keep moving the right balance.
      return Object.assign(held, fields);
    }
    // An evicted record a request in flight still holds comes back as the same object (see the invariant above).
    const revived = this.detached.take(row.id);
    const record: TokenRecord = revived ? Object.assign(revived, fields) : { id: row.id, balanceKey: tokenBalanceKey(row.id), ...fields };
    this.byId.set(record.id, record);
    this.byKey.set(record.key, record);
    return record;
  }

  /** Pushed out by a newer entry: no longer indexed, but re-used if loaded while still held elsewhere. */
  private evicted(record: TokenRecord): void {
    this.byId.delete(record.id);
    this.detached.keep(record.id, record);
  }

  private remove(id: number): void {
    const record = this.byId.get(id);
    if (!record) return;
    this.byId.delete(id);
    this.byKey.delete(record.key);
  }
}
