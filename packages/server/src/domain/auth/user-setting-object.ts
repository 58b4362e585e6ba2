import { safeParseJson } from '../../core/platform/safe-json.ts';

/** A copy of the fields in a user's `setting` text; text that is missing or not a JSON object reads as none. */
export function userSettingObject(setting: string | null | undefined): Record<string, unknown> {
  const parsed = setting ? safeParseJson(setting) : undefined;
  return parsed?.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
    ? { ...(parsed.value as Record<string, unknown>) }
    : {};
}
