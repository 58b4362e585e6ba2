import type { QuotaLedger, UserBalance } from '../../../domain/billing/quota-ledger.ts';
import { userBalanceKey } from '../../../domain/billing/spend-guard.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { defaultUserCacheSize } from '../../../core/config/cache-sizes.ts';
import { DetachedRecords } from './detached-records.ts';
import { idBatches } from './id-batches.ts';
import { LruMap } from './lru-map.ts';
import type { UserReads, UserRow } from './relay-cache.repository.ts';
import { ReloadFreshness } from '../../../core/platform/reload-freshness.ts';

/** A user as the relay needs it. Balances are mutated in place by the quota ledger. */
export interface UserRecord extends UserBalance {
  readonly id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  email: string;
  /** The user's opt-in to models without a price (setting.accept_unset_model_ratio_model). */
  acceptUnpriced: boolean;
}

function readAcceptUnpriced(setting: string | null): boolean {
  if (!setting) return false;
  const parsed = safeParseJson(setting);
  return (
    parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && (parsed.value as Record<string, unknown>).accept_unset_model_ratio_model === true
  );
}

/**
 * The users in use, by id: read at first use (simultaneous first uses share one read), at most
 * `capacity` held, those unused longest dropped first. The change bus reloads a held user at once
 * (top-ups, bans, group changes on any instance); one not held is read at its next use. Every
 * SYNC_FREQUENCY what is held is read again in batches; a deregistered user disappears.
 *
 * Money: the same invariant as TokenCache's. A record is `stored row + ledger.unwrittenUser(id)` when
 * applied and then moves only through the ledger on that object; the ledger keeps queued deltas and
 * holds by id, and an evicted record still held by a request in flight is the one re-used when the id
 * is loaded again (DetachedRecords), so nothing is lost or counted twice.
 */
export class UserCache {
  private readonly byId: LruMap<number, UserRecord>;
  private readonly detached = new DetachedRecords<UserRecord>();
  private readonly freshness = new ReloadFreshness();
  /** The newest read of each user in flight (first reads and change-bus re-reads). */
  private readonly rereads = new Map<number, Promise<UserRecord | undefined>>();
  private readonly repository: UserReads;
  private readonly ledger: QuotaLedger;

  constructor(repository: UserReads, ledger: QuotaLedger, capacity = defaultUserCacheSize) {
    this.repository = repository;
    this.ledger = ledger;
    this.byId = new LruMap(capacity, (id, record) => this.detached.keep(id, record));
  }

  /** Users held now (at most the capacity). */
  get size(): number {
    return this.byId.size;
  }

  /** Reads every held user again, in batches by id (SYNC_FREQUENCY, or a change-bus message naming no user). */
  async reloadCached(): Promise<void> {
    const since = this.freshness.wideReadStarting();
    try {
      await this.reloadBatches(since);
    } finally {
      this.freshness.wideReadDone(since);
    }
  }

  private async reloadBatches(since: number): Promise<void> {
    for (const batch of idBatches([...this.byId.keys()])) {
      const rows = await this.ledger.readConsistently(() => this.repository.usersByIds(batch));
      const found = new Set<number>();
      for (const row of rows) {
        found.add(row.id);
        // Evicted meanwhile: it is read afresh at its next use.
        if (this.byId.has(row.id) && !this.freshness.isFresher(row.id, since)) this.apply(row);
      }
      for (const id of batch) if (!found.has(id) && !this.freshness.isFresher(id, since)) this.byId.delete(id);
    }
  }

  /**
   * The user changed (change bus): a held user, or one whose first read is in flight, is read again;
   * this resolves once the newest read started so far has applied. One not held is read at its next use.
   */
  async reload(id: number): Promise<UserRecord | undefined> {
    if (!this.byId.has(id) && !this.rereads.has(id)) return undefined;
    return this.read(id);
  }

  private async read(id: number): Promise<UserRecord | undefined> {
    const reading = this.reread(id, this.freshness.rereading(id));
    this.rereads.set(id, reading);
    try {
      return await reading;
    } finally {
      this.freshness.rereadDone(id);
      if (this.rereads.get(id) === reading) this.rereads.delete(id);
    }
  }

  private async reread(id: number, read: number): Promise<UserRecord | undefined> {
    const row = await this.ledger.readConsistently(() => this.repository.userById(id));
    // A later re-read started meanwhile: its row is the newer one, and its answer is this one's. Once it
    // is done its record may already be evicted again (or the user gone): then the answer is a new read.
    if (!this.freshness.isNewestReread(id, read)) return this.rereads.get(id) ?? this.byId.peek(id) ?? this.read(id);
    if (row) return this.apply(row);
    this.byId.delete(id);
    return undefined;
  }

  /** The re-read of a held user in flight (a change reached this process): a call waits for it, as for a token's (TokenCache.rereadOf). */
  rereadOf(id: number): Promise<unknown> | undefined {
    return this.rereads.size === 0 ? undefined : this.rereads.get(id);
  }

  /** A held user from memory (the hot path); marks it as used. */
  get(id: number): UserRecord | undefined {
    return this.byId.get(id);
  }

  /** From memory, or one read when the user is new to this process (shared by the calls that wait for it). */
  async lookup(id: number): Promise<UserRecord | undefined> {
    return this.byId.get(id) ?? this.rereads.get(id) ?? this.read(id);
  }

  /**
   * Applies another process's written movements (a user not held reads them with its row). A read of
   * the user in flight may have read the row before that write: it is followed by another, and a
   * periodic reload in flight leaves the record as moved here.
   */
  applyRemoteDelta(id: number, quota: number, used: number, requests: number): void {
    this.freshness.changed(id);
    if (this.rereads.has(id)) void this.read(id).catch(() => undefined);
    const record = this.byId.peek(id);
    if (!record) return;
    record.quota += quota;
    record.usedQuota += used;
    record.requestCount += requests;
  }

  private apply(row: UserRow): UserRecord {
    const unwritten = this.ledger.unwrittenUser(row.id);
    const fields = {
      username: row.username,
      role: row.role,
      status: row.status,
      group: row.group || 'default',
      email: row.email ?? '',
      quota: row.quota + unwritten.quota,
      usedQuota: row.used_quota + unwritten.used,
      requestCount: row.request_count + unwritten.requests,
      acceptUnpriced: readAcceptUnpriced(row.setting),
    };
    // A reload is not a use: a held entry keeps its place in the eviction order.
    const held = this.byId.peek(row.id);
    if (held) return Object.assign(held, fields);
    // An evicted record a request in flight still holds comes back as the same object (see above).
    const revived = this.detached.take(row.id);
    const record: UserRecord = revived ? Object.assign(revived, fields) : { id: row.id, balanceKey: userBalanceKey(row.id), ...fields };
    this.byId.set(row.id, record);
    return record;
  }
}
