import type { QuotaDataRow, QuotaDataUserRow } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { LogsReadThrough } from '../../../core/db/off-index.ts';
import { readRollUpAt } from './consistent-rollup-read.ts';
import type { QuotaDataRange, QuotaDataRepository } from './quota-data.repository.ts';

const day = 86_400;

const bucketKey = (row: QuotaDataRow) => `${row.created_at}\u0000${row.user_id}\u0000${row.username}\u0000${row.model_name}`;

/** A dashboard request: either end may be absent; at most one of username and userId narrows it. */
export interface UsageQuery {
  from?: number | undefined;
  to?: number | undefined;
  username?: string | undefined;
  userId?: number | undefined;
}

/** Hourly usage for the data dashboard: `quota_data` (filled by the quota-data job) and the logs it has not counted yet. */
export class QuotaDataService {
  private readonly repository: QuotaDataRepository;
  private readonly clock: Clock;
  private readonly rollUpRuns: () => boolean;

  /** `rollUpRuns`: whether the quota-data job runs now (DataExportEnabled), so that its watermark is recent. */
  constructor(dependencies: { repository: QuotaDataRepository; clock: Clock; rollUpRuns?: () => boolean }) {
    this.repository = dependencies.repository;
    this.clock = dependencies.clock;
    this.rollUpRuns = dependencies.rollUpRuns ?? (() => true);
  }

  /** The requested range; without one, the last day (the dashboard always sends both ends). */
  private range(query: UsageQuery): QuotaDataRange {
    const to = query.to ?? this.clock.unixSeconds();
    const from = query.from ?? to - day;
    return { from, to };
  }

  /**
   * The aggregated buckets up to the aggregation's watermark, plus the newer logs summed the same way,
   * so today's usage shows within seconds of its logs, not after the next DataExportInterval run.
   */
  private async liveBuckets(range: QuotaDataRange): Promise<QuotaDataRow[]> {
    const rolled = await readRollUpAt(
      () => this.repository.watermark(),
      () => this.repository.buckets(range),
    );
    // Behind a recent watermark the logs not counted yet are a minute or two: read through their ids.
    // Behind none, or a stale one (the job is off), the range is read through its index instead.
    const through: LogsReadThrough = rolled.watermark > 0 && this.rollUpRuns() ? 'ids' : 'time';
    const newest = await this.repository.newestBuckets(rolled.watermark, range, through);
    if (newest.length === 0) return rolled.rows;
    const merged = new Map(rolled.rows.map((row) => [bucketKey(row), { ...row }]));
    for (const row of newest) {
      const existing = merged.get(bucketKey(row));
      if (existing) {
        existing.token_used += row.token_used;
        existing.count += row.count;
        existing.quota += row.quota;
      } else merged.set(bucketKey(row), row);
    }
    return [...merged.values()].sort((left, right) => left.created_at - right.created_at);
  }

  /** Per user and model, every user's or (with username or userId) one user's. */
  usage(query: UsageQuery): Promise<QuotaDataRow[]> {
    return this.liveBuckets({ ...this.range(query), username: query.username, userId: query.userId });
  }

  /** Every user's totals per hour, all models together. */
  async usagePerUser(query: UsageQuery): Promise<QuotaDataUserRow[]> {
    const perUser = new Map<string, QuotaDataUserRow>();
    for (const row of await this.liveBuckets(this.range(query))) {
      const key = `${row.created_at}\u0000${row.username}`;
      const existing = perUser.get(key);
      if (existing) {
        existing.token_used += row.token_used;
        existing.count += row.count;
        existing.quota += row.quota;
      } else perUser.set(key, { username: row.username, created_at: row.created_at, token_used: row.token_used, count: row.count, quota: row.quota });
    }
    return [...perUser.values()].sort((left, right) => left.created_at - right.created_at || left.username.localeCompare(right.username));
  }
}
