import type { TokenView } from '@switchboard/contracts';

/** A token's request limits in the drawer: empty (null) is unlimited, as 0 is on the wire. */
export interface TokenLimitValues {
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit: number | null;
}

export type TokenLimitInput = { [Key in keyof TokenLimitValues]: number };

export const emptyTokenLimits: TokenLimitValues = { rpm_limit: null, tpm_limit: null, concurrency_limit: null };

const asField = (limit: number | undefined) => (limit && limit > 0 ? limit : null);
const asWire = (value: number | null | undefined) => (typeof value === 'number' && value > 0 ? Math.trunc(value) : 0);

export function tokenLimitsToForm(token: TokenView): TokenLimitValues {
  return { rpm_limit: asField(token.rpm_limit), tpm_limit: asField(token.tpm_limit), concurrency_limit: asField(token.concurrency_limit) };
}

export function formToTokenLimits(values: Partial<TokenLimitValues>): TokenLimitInput {
  return { rpm_limit: asWire(values.rpm_limit), tpm_limit: asWire(values.tpm_limit), concurrency_limit: asWire(values.concurrency_limit) };
}
