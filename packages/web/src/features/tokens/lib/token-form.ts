import type { TokenView } from '@switchboard/contracts';
import dayjs, { type Dayjs } from 'dayjs';
import type { TokenInput } from '../api/token-input.ts';
import { defaultTokenQuota } from './token-defaults.ts';
import { emptyTokenLimits, formToTokenLimits, tokenLimitsToForm, type TokenLimitValues } from './token-limits.ts';

/** The drawer's form state: dates as dayjs, model limits as a list (the wire uses a comma string). */
export interface TokenFormValues extends TokenLimitValues {
  name: string;
  expires: Dayjs | null;
  remain_quota: number;
  unlimited_quota: boolean;
  count: number;
  allow_ips: string;
  model_limits_enabled: boolean;
  model_limits: string[];
  group: string;
  /** Payload logging for this token (the switch is shown to administrators only). */
  log_payload?: boolean;
  /** The owner's opt-out of the response cache. */
  response_cache_off: boolean;
  /** The token's own fallback chains as JSON, '' for the system setting's. */
  model_fallbacks: string;
}

export const emptyTokenForm: TokenFormValues = {
  name: '',
  expires: null,
  remain_quota: defaultTokenQuota,
  unlimited_quota: false,
  count: 1,
  allow_ips: '',
  model_limits_enabled: false,
  model_limits: [],
  group: '',
  response_cache_off: false,
  model_fallbacks: '',
  ...emptyTokenLimits,
};

export function tokenToForm(token: TokenView): TokenFormValues {
  return {
    name: token.name,
    expires: token.expired_time > 0 ? dayjs.unix(token.expired_time) : null,
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota,
    count: 1,
    allow_ips: token.allow_ips ?? '',
    model_limits_enabled: token.model_limits_enabled,
    model_limits: (token.model_limits ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    group: token.group ?? '',
    log_payload: token.log_payload === true,
    response_cache_off: token.response_cache_off === true,
    model_fallbacks: token.model_fallbacks ?? '',
    ...tokenLimitsToForm(token),
  };
}

export function formToTokenInput(values: TokenFormValues, name = values.name): TokenInput {
  return {
    name: name.trim(),
    expired_time: values.expires ? values.expires.unix() : -1,
    remain_quota: Math.max(0, Math.trunc(values.remain_quota ?? 0)),
    unlimited_quota: values.unlimited_quota,
    allow_ips: (values.allow_ips ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n'),
    model_limits_enabled: values.model_limits_enabled,
    model_limits: values.model_limits_enabled ? values.model_limits.join(',') : '',
    group: values.group ?? '',
    // Sent only when the switch was on the form (administrators): others leave the column as it is.
    ...(values.log_payload === undefined ? {} : { log_payload: values.log_payload }),
    response_cache_off: values.response_cache_off === true,
    model_fallbacks: (values.model_fallbacks ?? '').trim(),
    ...formToTokenLimits(values),
  };
}
