import type { BlockList } from 'node:net';
import { TokenStatus } from '@switchboard/contracts';
import { toBoolean } from '../../db/dialect.ts';
import type { QuotaLedger, TokenBalance } from '../../billing/quota-ledger.ts';
import { tokenBalanceKey } from '../../billing/spend-guard.ts';
import { tokenRequestLimits, type TokenRequestLimits } from '../../limits/token-request-limits.ts';
import { parseAllowList } from './ip-allow-list.ts';
import type { RelayCacheRepository, TokenRow } from './relay-cache.repository.ts';
import { ReloadFreshness } from './reload-freshness.ts';
import { safeParseJson } from '../../platform/safe-json.ts';
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

/** A token's stored fallback chains; empty or unreadable text means none of its own. */
function tokenFallbacks(stored: string | null | undefined): FallbackMap | undefined {
  if (!stored) return undefined;
  const parsed = safeParseJson(stored);
  const read = parsed.ok ? readFallbackMap(parsed.value) : undefined;
  return read?.ok && Object.keys(read.map).length > 0 ? read.map : undefined;
}
const missMemorySize = 10_000;

/**
 * Every token in memory, by key and by id. Loaded at start, reloaded per id when the change bus says
 * a token changed (console edits on any instance), fully every SYNC_FREQUENCY. A key not in memory
 * (created by another tool) is looked up once, then remembered either way.
 */
export class TokenCache {
  private readonly byKey = new Map<string, TokenRecord>();
  private readonly byId = new Map<number, TokenRecord>();
  private readonly misses = new Map<string, number>();
  private readonly freshness = new ReloadFreshness();
  /** The newest re-read of each token in flight. */
  private readonly rereads = new Map<number, Promise<void>>();
  private readonly repository: RelayCacheRepository;
  private readonly ledger: QuotaLedger;
  private readonly now: () => number;

  constructor(repository: RelayCacheRepository, ledger: QuotaLedger, now: () => number) {
    this.repository = repository;
    this.ledger = ledger;
    this.now = now;
  }

  async loadAll(): Promise<void> {
    const since = this.freshness.fullReloadStarting();
    const rows = await this.ledger.readConsistently(() => this.repository.allTokens());
    const seen = new Set<number>();
    for (const row of rows) {
      seen.add(row.id);
      if (!this.freshness.isFresher(row.id, since)) this.apply(row);
    }
    for (const id of [...this.byId.keys()]) if (!seen.has(id) && !this.freshness.isFresher(id, since)) this.remove(id);
    this.freshness.fullReloadDone(since);
    this.misses.clear();
  }

  /** Reads the token again; resolves once the newest re-read of it started so far has applied. */
  async reload(id: number): Promise<void> {
    const reading = this.reread(id, this.freshness.rereading(id));
    this.rereads.set(id, reading);
    try {
      await reading;
    } finally {
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

  /** The token of a key from memory only (the hot path). */
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

  get(key: string): TokenRecord | undefined {
    return this.byKey.get(key);
  }

  getById(id: number): TokenRecord | undefined {
    return this.byId.get(id);
  }

  /** A key memory does not hold: one database read, remembered either way. */
  async lookup(key: string): Promise<TokenRecord | undefined> {
    const cached = this.byKey.get(key);
    if (cached) return cached;
    const missedAt = this.misses.get(key);
    if (missedAt !== undefined && this.now() - missedAt < missMemoryMs) return undefined;
    const row = await this.ledger.readConsistently(() => this.repository.tokenByKey(key));
    if (row) return this.apply(row);
    if (this.misses.size >= missMemorySize) this.misses.clear();
    this.misses.set(key, this.now());
    return undefined;
  }

  /** Applies another instance's written movements. */
  applyRemoteDelta(id: number, remain: number, used: number): void {
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
    const existing = this.byId.get(row.id);
    if (existing) {
      if (existing.key !== row.key) this.byKey.delete(existing.key);
      // In place: reservations in flight hold this object and keep moving the right balance.
      Object.assign(existing, fields);
      this.byKey.set(row.key, existing);
      return existing;
    }
    const record: TokenRecord = { id: row.id, balanceKey: tokenBalanceKey(row.id), ...fields };
    this.byId.set(row.id, record);
    this.byKey.set(row.key, record);
    this.misses.delete(row.key);
    return record;
  }

  private remove(id: number): void {
    const record = this.byId.get(id);
    if (!record) return;
    this.byId.delete(id);
    this.byKey.delete(record.key);
  }
}
