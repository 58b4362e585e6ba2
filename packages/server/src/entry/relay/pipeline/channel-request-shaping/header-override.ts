/**
 * A channel's `header_override` (new-api): header name → value, set on every upstream request after
 * the provider's own headers (so it may replace `authorization`). `{api_key}` in a value is the key
 * this attempt uses, so a vendor that wants the key in another header can have it.
 */
export type HeaderOverride = Readonly<Record<string, string>>;

const tokenPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const apiKeyPlaceholder = '{api_key}';

/**
 * The override a parsed `header_override` describes, names lower-cased; undefined for none,
 * 'invalid' when a name is not a header name or a value is not text (or would split the header).
 */
export function readHeaderOverride(value: unknown): HeaderOverride | undefined | 'invalid' {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'invalid';
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value)) {
    const text = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : undefined;
    if (text === undefined || !tokenPattern.test(name) || /[\r\n\0]/.test(text)) return 'invalid';
    headers[name.toLowerCase()] = text;
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** The provider's headers with the override applied (names compared without case). */
export function withHeaderOverride(headers: Readonly<Record<string, string>>, override: HeaderOverride, apiKey: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!Object.hasOwn(override, name.toLowerCase())) result[name] = value;
  for (const [name, value] of Object.entries(override)) result[name] = value.includes(apiKeyPlaceholder) ? value.split(apiKeyPlaceholder).join(apiKey) : value;
  return result;
}
