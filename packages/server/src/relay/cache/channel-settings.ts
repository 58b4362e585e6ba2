import { safeParseJson } from '../../platform/safe-json.ts';

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
