import { wholeNumber } from '@switchboard/contracts';
import type { TokenUpdate } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** A limit as the console sends it: a whole number, or null / 0 for unlimited; absent leaves it as is. */
const limitField = wholeNumber.nullish();

/** The token's request limits on the wire (migration 0019's columns). */
export const tokenLimitFields = { rpm_limit: limitField, tpm_limit: limitField, concurrency_limit: limitField };

type LimitKey = keyof typeof tokenLimitFields;
type LimitFields = Partial<Record<LimitKey, number | null | undefined>>;

export const tokenLimitMessages = {
  limitInvalid: {
    zh: '{field} 必须是 0 到 {max} 之间的整数（0 或留空表示不限制）',
    en: '{field} must be a whole number from 0 to {max} (0 or empty for no limit)',
  },
} as const satisfies Record<string, LocalizedMessage>;

/** Column ceilings: int columns for requests, bigint (kept within safe integers) for tokens. */
const maximums: Record<LimitKey, number> = { rpm_limit: 2_147_483_647, tpm_limit: Number.MAX_SAFE_INTEGER, concurrency_limit: 2_147_483_647 };

/** The limit columns a create or update writes: only the fields given, null as 0; out of range is refused. */
export function tokenLimitColumns(fields: LimitFields): Pick<TokenUpdate, LimitKey> {
  const columns: Pick<TokenUpdate, LimitKey> = {};
  for (const key of Object.keys(maximums) as LimitKey[]) {
    const value = fields[key];
    if (value === undefined) continue;
    const limit = value ?? 0;
    if (limit < 0 || limit > maximums[key]) throw new AppError(tokenLimitMessages.limitInvalid, { params: { field: key, max: maximums[key] } });
    columns[key] = limit;
  }
  return columns;
}
