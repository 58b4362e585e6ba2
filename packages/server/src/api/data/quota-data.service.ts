import type { QuotaDataRow, QuotaDataUserRow } from '@switchboard/contracts';
import type { Clock } from '../../platform/clock.ts';
import type { QuotaDataRange, QuotaDataRepository } from './quota-data.repository.ts';

const day = 86_400;

/** A dashboard request: either end may be absent; at most one of username and userId narrows it. */
export interface UsageQuery {
  from?: number | undefined;
  to?: number | undefined;
  username?: string | undefined;
  userId?: number | undefined;
}

/** Hourly usage for the data dashboard, read from `quota_data` (filled by the quota-data job). */
export class QuotaDataService {
  private readonly repository: QuotaDataRepository;
  private readonly clock: Clock;

  constructor(dependencies: { repository: QuotaDataRepository; clock: Clock }) {
    this.repository = dependencies.repository;
    this.clock = dependencies.clock;
  }

  /** The requested range; without one, the last day (the dashboard always sends both ends). */
  private range(query: UsageQuery): QuotaDataRange {
    const to = query.to ?? this.clock.unixSeconds();
    const from = query.from ?? to - day;
    return { from, to };
  }

  /** Per user and model, every user's or (with username or userId) one user's. */
  usage(query: UsageQuery): Promise<QuotaDataRow[]> {
    return this.repository.buckets({ ...this.range(query), username: query.username, userId: query.userId });
  }

  /** Every user's totals per hour, all models together. */
  usagePerUser(query: UsageQuery): Promise<QuotaDataUserRow[]> {
    return this.repository.bucketsPerUser(this.range(query));
  }
}
