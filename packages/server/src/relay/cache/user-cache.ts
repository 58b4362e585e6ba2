import type { QuotaLedger, UserBalance } from '../../billing/quota-ledger.ts';
import { userBalanceKey } from '../../billing/spend-guard.ts';
import { safeParseJson } from '../../platform/safe-json.ts';
import type { RelayCacheRepository, UserRow } from './relay-cache.repository.ts';
import { ReloadFreshness } from './reload-freshness.ts';

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
 * Every live user in memory by id: loaded at start, reloaded per id on the change bus (top-ups,
 * bans, group changes on any instance), fully every SYNC_FREQUENCY. A deregistered user disappears.
 */
export class UserCache {
  private readonly byId = new Map<number, UserRecord>();
  private readonly freshness = new ReloadFreshness();
  /** The newest re-read of each user in flight. */
  private readonly rereads = new Map<number, Promise<UserRecord | undefined>>();
  private readonly repository: RelayCacheRepository;
  private readonly ledger: QuotaLedger;

  constructor(repository: RelayCacheRepository, ledger: QuotaLedger) {
    this.repository = repository;
    this.ledger = ledger;
  }

  async loadAll(): Promise<void> {
    const since = this.freshness.fullReloadStarting();
    const rows = await this.ledger.readConsistently(() => this.repository.allUsers());
    const seen = new Set<number>();
    for (const row of rows) {
      seen.add(row.id);
      if (!this.freshness.isFresher(row.id, since)) this.apply(row);
    }
    for (const id of [...this.byId.keys()]) if (!seen.has(id) && !this.freshness.isFresher(id, since)) this.byId.delete(id);
    this.freshness.fullReloadDone(since);
  }

  /** Reads the user again; resolves once the newest re-read of it started so far has applied. */
  async reload(id: number): Promise<UserRecord | undefined> {
    const reading = this.reread(id, this.freshness.rereading(id));
    this.rereads.set(id, reading);
    try {
      return await reading;
    } finally {
      if (this.rereads.get(id) === reading) this.rereads.delete(id);
    }
  }

  private async reread(id: number, read: number): Promise<UserRecord | undefined> {
    const row = await this.ledger.readConsistently(() => this.repository.userById(id));
    // A later re-read started meanwhile: its row is the newer one, and its answer is this one's.
    if (!this.freshness.isNewestReread(id, read)) return this.rereads.get(id) ?? this.byId.get(id);
    if (row) return this.apply(row);
    this.byId.delete(id);
    return undefined;
  }

  get(id: number): UserRecord | undefined {
    return this.byId.get(id);
  }

  /** From memory, or one read when the user is new to this instance (shared by the calls that wait for it). */
  async lookup(id: number): Promise<UserRecord | undefined> {
    return this.byId.get(id) ?? this.rereads.get(id) ?? this.reload(id);
  }

  applyRemoteDelta(id: number, quota: number, used: number, requests: number): void {
    const record = this.byId.get(id);
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
    const existing = this.byId.get(row.id);
    if (existing) return Object.assign(existing, fields);
    const record: UserRecord = { id: row.id, balanceKey: userBalanceKey(row.id), ...fields };
    this.byId.set(row.id, record);
    return record;
  }
}
