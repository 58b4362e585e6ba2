import { randomUUID } from 'node:crypto';
import { formatQuota, RedemptionStatus } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import type { RedemptionRow, RedemptionUpdate } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { RedemptionRepository } from './redemption.repository.ts';
import { redemptionMessages } from './redemption.messages.ts';

export const defaultRedemptionQuota = 100_000;
const maximumBatch = 100;
const maximumNameLength = 20;

export interface RedemptionFields {
  name?: string | null | undefined;
  quota?: number | undefined;
  expired_time?: number | undefined;
}

export interface RedemptionServiceDependencies {
  readonly repository: RedemptionRepository;
  readonly options: OptionStore;
  readonly clock: Clock;
}

/** Redemption codes (administrators): 32 hex characters, created up to 100 at a time. */
export class RedemptionService {
  private readonly repository: RedemptionRepository;
  private readonly options: OptionStore;
  private readonly clock: Clock;

  constructor(dependencies: RedemptionServiceDependencies) {
    this.repository = dependencies.repository;
    this.options = dependencies.options;
    this.clock = dependencies.clock;
  }

  private checkQuota(quota: number): void {
    if (!Number.isInteger(quota) || quota <= 0) throw new AppError(redemptionMessages.quotaInvalid);
  }

  private checkName(name: string): void {
    const length = [...name].length;
    if (length < 1 || length > maximumNameLength) throw new AppError(redemptionMessages.nameLength);
  }

  list(offset: number, limit: number) {
    return this.repository.list(offset, limit);
  }

  count(): Promise<number> {
    return this.repository.count();
  }

  search(keyword: string) {
    return this.repository.search(keyword);
  }

  async get(id: number): Promise<RedemptionRow> {
    const row = await this.repository.find(id);
    if (!row) throw new AppError(redemptionMessages.notFound);
    return row;
  }

  /** Creates the codes and answers them; an empty name becomes the quota in display form ("$0.20"). */
  async create(admin: CurrentUser, fields: RedemptionFields, count: number): Promise<string[]> {
    const quota = fields.quota ?? defaultRedemptionQuota;
    this.checkQuota(quota);
    if (!Number.isInteger(count) || count < 1 || count > maximumBatch) throw new AppError(redemptionMessages.countInvalid);
    const options = this.options;
    const name =
      fields.name?.trim() ||
      formatQuota(quota, { quotaPerUnit: options.getNumber('QuotaPerUnit'), displayInCurrency: options.getBoolean('DisplayInCurrencyEnabled') });
    this.checkName(name);
    const now = this.clock.unixSeconds();
    const keys = Array.from({ length: count }, () => randomUUID().replaceAll('-', ''));
    await this.repository.insertAll(
      keys.map((key) => ({
        user_id: admin.id,
        key,
        status: RedemptionStatus.unused,
        name,
        quota,
        created_time: now,
        redeemed_time: 0,
        used_user_id: 0,
        expired_time: fields.expired_time ?? 0,
        deleted_at: null,
      })),
    );
    return keys;
  }

  /** Edits name, quota and expiry, or (status only) enables and disables; a used code stays as it is. */
  async update(id: number, fields: RedemptionFields & { status?: number | undefined }, statusOnly: boolean): Promise<RedemptionRow> {
    const existing = await this.get(id);
    if (existing.status === RedemptionStatus.used) throw new AppError(redemptionMessages.usedCannotChange);
    const patch: RedemptionUpdate = {};
    if (statusOnly) {
      if (fields.status !== RedemptionStatus.unused && fields.status !== RedemptionStatus.disabled) throw new AppError(redemptionMessages.statusInvalid);
      patch.status = fields.status;
    } else {
      if (fields.name !== undefined && fields.name !== null) {
        this.checkName(fields.name.trim());
        patch.name = fields.name.trim();
      }
      if (fields.quota !== undefined) {
        this.checkQuota(fields.quota);
        patch.quota = fields.quota;
      }
      if (fields.expired_time !== undefined) patch.expired_time = Math.max(0, fields.expired_time);
    }
    if (Object.keys(patch).length > 0 && !(await this.repository.updateUnused(id, patch, RedemptionStatus.used)))
      throw new AppError(redemptionMessages.usedCannotChange);
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repository.softDelete(id, new Date(this.clock.now())))) throw new AppError(redemptionMessages.notFound);
  }

  /** new-api's "clear invalid codes": used, disabled and expired ones; answers how many went. */
  deleteInvalid(): Promise<number> {
    return this.repository.softDeleteInvalid(new Date(this.clock.now()), this.clock.unixSeconds());
  }
}
