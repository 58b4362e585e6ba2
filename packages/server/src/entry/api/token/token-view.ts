import type { TokenView } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import type { TokenRow } from '../../../core/db/schema.ts';

/** new-api's mask: the first and last four characters, so the owner can still tell keys apart. */
export function maskTokenKey(key: string): string {
  return key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 4)}${'*'.repeat(10)}${key.slice(-4)}`;
}

/**
 * A token as its owner sees it: the key (stored without `sk-`) is theirs to copy, unless `hideKey`
 * (owners with a second factor reveal it through POST /api/token/:id/key after re-verifying).
 */
export function toTokenView(row: TokenRow, hideKey = false): TokenView {
  return {
    id: row.id,
    user_id: row.user_id,
    key: hideKey ? maskTokenKey(row.key) : row.key,
    status: row.status,
    name: row.name,
    created_time: Number(row.created_time),
    accessed_time: Number(row.accessed_time),
    expired_time: Number(row.expired_time),
    remain_quota: Number(row.remain_quota),
    unlimited_quota: toBoolean(row.unlimited_quota),
    model_limits_enabled: toBoolean(row.model_limits_enabled),
    model_limits: row.model_limits ?? '',
    allow_ips: row.allow_ips ?? '',
    used_quota: Number(row.used_quota),
    group: row.group,
    rpm_limit: Number(row.rpm_limit ?? 0),
    tpm_limit: Number(row.tpm_limit ?? 0),
    concurrency_limit: Number(row.concurrency_limit ?? 0),
    log_payload: toBoolean(row.log_payload),
    response_cache_off: toBoolean(row.response_cache_off),
    model_fallbacks: row.model_fallbacks ?? '',
  };
}
