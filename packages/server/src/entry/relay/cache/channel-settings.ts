import { safeParseJson } from '../../../core/platform/safe-json.ts';

/** The longest first-byte wait a channel may set: an hour. */
export const maxFirstByteTimeoutSeconds = 3600;

/**
 * `first_byte_timeout` of a channel's `setting` JSON: seconds the channel's upstream may take to
 * send its first byte (response headers; a stream's first chunk) before the attempt is abandoned
 * and the next channel tried. Undefined when not set (or 0): RELAY_FIRST_BYTE_TIMEOUT applies.
 * 'invalid' for a value that is not a whole number of seconds from 0 to 3600.
 */
export function firstByteTimeoutSetting(setting: string | null | undefined): number | undefined | 'invalid' {
  if (!setting?.trim()) return undefined;
  const parsed = safeParseJson(setting);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const value = (parsed.value as Record<string, unknown>).first_byte_timeout;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > maxFirstByteTimeoutSeconds) return 'invalid';
  return value === 0 ? undefined : value;
}

/**
 * The usage-aware strategy's ceilings from a channel's `setting` JSON: `rpm_limit` and `tpm_limit`
 * for the channel as a whole, `key_rpm_limit` and `key_tpm_limit` for each of its keys (vendors
 * limit per key, so a multi-key channel's keys each have their own). 0 or absent: no ceiling.
 */
export interface ChannelUsageLimits {
  readonly rpm: number;
  readonly tpm: number;
  readonly keyRpm: number;
  readonly keyTpm: number;
}

export const usageLimitFields = ['rpm_limit', 'tpm_limit', 'key_rpm_limit', 'key_tpm_limit'] as const;

/** The ceilings a channel sets; undefined when it sets none (the common case), 'invalid' for a value that is not a whole number ≥ 0. */
export function usageLimitsSetting(setting: string | null | undefined): ChannelUsageLimits | undefined | 'invalid' {
  if (!setting?.trim()) return undefined;
  const parsed = safeParseJson(setting);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const record = parsed.value as Record<string, unknown>;
  const values: number[] = [];
  for (const field of usageLimitFields) {
    const value = record[field] ?? 0;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return 'invalid';
    values.push(value);
  }
  const [rpm = 0, tpm = 0, keyRpm = 0, keyTpm = 0] = values;
  return rpm || tpm || keyRpm || keyTpm ? { rpm, tpm, keyRpm, keyTpm } : undefined;
}
