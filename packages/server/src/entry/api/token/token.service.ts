import type { BalanceChanges } from '../../../domain/billing/balance-changes.ts';
import { TokenStatus } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { fromBoolean, toBoolean } from '../../../core/db/dialect.ts';
import type { NewToken, TokenRow, TokenUpdate } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { randomAlphanumeric } from '../../../core/platform/random.ts';
import { mayUseGroup } from '../../../domain/groups/usable-groups.ts';
import type { TokenFields } from './token-input.ts';
import { tokenLimitColumns } from './token-limit-fields.ts';
import { tokenPayloadColumn } from './token-payload-field.ts';
import { tokenCacheColumns } from './token-cache-fields.ts';
import type { TokenRepository } from './token.repository.ts';
import { tokenMessages } from './token.messages.ts';

export const defaultTokenQuota = 500_000;
const maximumNameLength = 50;
const maximumCount = 100;
const keyLength = 48;

/** -1 (never), Unix seconds, or a `yyyy-MM-dd HH:mm:ss` text as older consoles send. */
function parseExpiry(value: number | string): number {
  if (typeof value === 'number' || /^-?\d+$/.test(value.trim())) {
    const seconds = Number(value);
    if (seconds === -1 || (Number.isSafeInteger(seconds) && seconds > 0)) return seconds;
    throw new AppError(tokenMessages.expiryInvalid);
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value.trim());
  const milliseconds = match ? new Date(value.trim().replace(' ', 'T')).getTime() : Number.NaN;
  if (!Number.isFinite(milliseconds)) throw new AppError(tokenMessages.expiryInvalid);
  return Math.floor(milliseconds / 1000);
}

function normalizeLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

function normalizeModels(text: string): string {
  return [
    ...new Set(
      text
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean),
    ),
  ].join(',');
}

export interface TokenServiceDependencies {
  readonly repository: TokenRepository;
  readonly options: OptionStore;
  readonly bus: ChangeBus;
  readonly clock: Clock;
  readonly balanceChanges: BalanceChanges;
}

/** Token rules; a user only ever reaches their own tokens (every query is scoped by user id). */
export class TokenService {
  private readonly repository: TokenRepository;
  private readonly options: OptionStore;
  private readonly bus: ChangeBus;
  private readonly clock: Clock;

  private readonly balanceChanges: BalanceChanges;

  constructor(dependencies: TokenServiceDependencies) {
    this.balanceChanges = dependencies.balanceChanges;
    this.repository = dependencies.repository;
    this.options = dependencies.options;
    this.bus = dependencies.bus;
    this.clock = dependencies.clock;
  }

  /** Answers once every process holds the tokens' new rows (the bus confirms each change). */
  private async changed(ids: readonly number[]): Promise<void> {
    await Promise.all(ids.map((id) => this.bus.publish(changeTopics.tokens, String(id))));
  }

  /** The given fields as columns, validated; absent fields stay absent. */
  private columnsFrom(user: CurrentUser, fields: TokenFields): TokenUpdate {
    const columns: TokenUpdate = {};
    if (fields.name !== undefined && fields.name !== null) {
      const name = fields.name.trim();
      if (name === '') throw new AppError(tokenMessages.nameRequired);
      if ([...name].length > maximumNameLength) throw new AppError(tokenMessages.nameTooLong);
      columns.name = name;
    }
    if (fields.expired_time !== undefined) columns.expired_time = parseExpiry(fields.expired_time);
    if (fields.remain_quota !== undefined) {
      if (fields.remain_quota < 0) throw new AppError(tokenMessages.quotaNegative);
      columns.remain_quota = fields.remain_quota;
    }
    if (fields.unlimited_quota !== undefined && fields.unlimited_quota !== null) columns.unlimited_quota = fromBoolean(fields.unlimited_quota);
    if (fields.model_limits_enabled !== undefined && fields.model_limits_enabled !== null)
      columns.model_limits_enabled = fromBoolean(fields.model_limits_enabled);
    if (fields.model_limits !== undefined) columns.model_limits = normalizeModels(fields.model_limits ?? '');
    if (fields.allow_ips !== undefined) columns.allow_ips = normalizeLines(fields.allow_ips ?? '');
    if (fields.group !== undefined) {
      const group = fields.group?.trim() ?? '';
      if (group !== '' && !mayUseGroup(this.options, user.group, group)) throw new AppError(tokenMessages.groupNotAllowed, { params: { group } });
      columns.group = group;
    }
    Object.assign(columns, tokenLimitColumns(fields));
    Object.assign(columns, tokenPayloadColumn(user, fields.log_payload));
    Object.assign(columns, tokenCacheColumns(fields));
    return columns;
  }

  list(user: CurrentUser, offset: number, limit: number) {
    return this.repository.list(user.id, offset, limit);
  }

  count(user: CurrentUser): Promise<number> {
    return this.repository.count(user.id);
  }

  search(user: CurrentUser, keyword: string, key: string) {
    return this.repository.search(user.id, keyword, key.replace(/^sk-/, ''));
  }

  async get(user: CurrentUser, id: number): Promise<TokenRow> {
    const token = await this.repository.find(user.id, id);
    if (!token) throw new AppError(tokenMessages.notFound);
    return token;
  }

  /** Creates `count` tokens: the first keeps the name, copies get `name-XXXXXX`. */
  async create(user: CurrentUser, fields: TokenFields, count = 1): Promise<TokenRow[]> {
    if (!fields.name?.trim()) throw new AppError(tokenMessages.nameRequired);
    if (!Number.isInteger(count) || count < 1 || count > maximumCount) throw new AppError(tokenMessages.countInvalid);
    const columns = this.columnsFrom(user, fields);
    const now = this.clock.unixSeconds();
    const name = columns.name ?? '';
    const rows: NewToken[] = Array.from({ length: count }, (_, index) => ({
      user_id: user.id,
      key: randomAlphanumeric(keyLength),
      status: TokenStatus.enabled,
      name: index === 0 ? name : `${name}-${randomAlphanumeric(6)}`,
      created_time: now,
      accessed_time: now,
      expired_time: columns.expired_time ?? -1,
      remain_quota: columns.remain_quota ?? defaultTokenQuota,
      unlimited_quota: columns.unlimited_quota ?? 0,
      model_limits_enabled: columns.model_limits_enabled ?? 0,
      model_limits: columns.model_limits ?? '',
      allow_ips: columns.allow_ips ?? '',
      used_quota: 0,
      group: columns.group ?? '',
      rpm_limit: columns.rpm_limit ?? 0,
      tpm_limit: columns.tpm_limit ?? 0,
      concurrency_limit: columns.concurrency_limit ?? 0,
      log_payload: columns.log_payload ?? 0,
      response_cache_off: columns.response_cache_off ?? 0,
      model_fallbacks: columns.model_fallbacks ?? '',
      deleted_at: null,
    }));
    const ids = await this.repository.insertAll(rows);
    await this.changed(ids);
    return Promise.all(ids.map((id) => this.get(user, id)));
  }

  /**
   * A full edit never takes `status` from the body, but revives an expired (exhausted) token whose
   * expiry (quota) it fixes. A status-only edit refuses to enable a token that is still expired or
   * still exhausted.
   */
  async update(user: CurrentUser, id: number, fields: TokenFields & { status?: number | undefined }, statusOnly: boolean): Promise<TokenRow> {
    const token = await this.get(user, id);
    const now = this.clock.unixSeconds();
    const expiredAt = (expiry: number) => expiry !== -1 && expiry <= now;
    const exhausted = (remain: number, unlimited: boolean) => !unlimited && remain <= 0;
    let columns: TokenUpdate;
    if (statusOnly) {
      if (fields.status !== TokenStatus.enabled && fields.status !== TokenStatus.disabled) throw new AppError(tokenMessages.statusInvalid);
      if (fields.status === TokenStatus.enabled) {
        if (expiredAt(Number(token.expired_time))) throw new AppError(tokenMessages.expiredCannotEnable);
        if (exhausted(Number(token.remain_quota), toBoolean(token.unlimited_quota))) throw new AppError(tokenMessages.exhaustedCannotEnable);
      }
      columns = { status: fields.status };
    } else {
      columns = this.columnsFrom(user, fields);
      const expiry = Number(columns.expired_time ?? token.expired_time);
      const remain = Number(columns.remain_quota ?? token.remain_quota);
      const unlimited = columns.unlimited_quota === undefined ? toBoolean(token.unlimited_quota) : columns.unlimited_quota === 1;
      if (token.status === TokenStatus.expired && !expiredAt(expiry))
        columns.status = exhausted(remain, unlimited) ? TokenStatus.exhausted : TokenStatus.enabled;
      if (token.status === TokenStatus.exhausted && !exhausted(remain, unlimited))
        columns.status = expiredAt(expiry) ? TokenStatus.expired : TokenStatus.enabled;
    }
    await this.repository.update(user.id, id, columns);
    if (columns.remain_quota !== undefined) this.balanceChanges.changed('token', id, columns.remain_quota - Number(token.remain_quota));
    await this.changed([id]);
    return this.get(user, id);
  }

  async delete(user: CurrentUser, id: number): Promise<void> {
    if (!(await this.repository.softDelete(user.id, id, new Date(this.clock.now())))) throw new AppError(tokenMessages.notFound);
    await this.changed([id]);
  }
}
