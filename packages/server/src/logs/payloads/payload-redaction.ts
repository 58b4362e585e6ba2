/** What replaces every secret in a stored payload. */
export const redactedMark = '[redacted]';

/**
 * Field names whose values are credentials, compared in lower case without `-` and `_`: so
 * `Authorization`, `api_key`, `apiKey`, `x-api-key`, `X-Goog-Api-Key`, `client_secret` all match.
 * `key`, `token`, `password` and `secret` are matched whole (never `max_tokens`, `key_id`).
 */
const secretFieldNames: ReadonlySet<string> = new Set([
  'authorization',
  'proxyauthorization',
  'apikey',
  'xapikey',
  'xgoogapikey',
  'key',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'password',
  'secret',
  'clientsecret',
  'cookie',
  'setcookie',
]);

/**
 * Secrets that may sit inside any text: OpenAI-style `sk-…` keys (also `sk-proj-…`, `sk-ant-…`),
 * and the credential after `Bearer ` or `Basic `.
 */
const secretPatterns: readonly RegExp[] = [/\bsk-[A-Za-z0-9_-]{8,}/g, /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi];

/** Nesting deeper than this is cut: a payload is for reading, and recursion must stay bounded. */
const maxDepth = 64;

function normalizedFieldName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

export function isSecretFieldName(name: string): boolean {
  return secretFieldNames.has(normalizedFieldName(name));
}

/** The text with every `sk-…` key and `Bearer …` credential replaced. */
export function redactSecretsInText(text: string): string {
  let out = text;
  for (const pattern of secretPatterns)
    out = out.replace(pattern, (match, scheme?: string) => (typeof scheme === 'string' ? `${scheme} ${redactedMark}` : redactedMark));
  return out;
}

/**
 * A copy of a parsed JSON value with credentials replaced at any depth: the value of every field
 * named like a credential (whatever its type), and secret-looking text inside any string.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecretsInText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= maxDepth) return redactedMark;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) out[name] = isSecretFieldName(name) ? redactedMark : redactSecrets(field, depth + 1);
  return out;
}

/** `"name": "value"` pairs in JSON-like text that cannot be parsed (cut or broken bodies). */
const quotedPair = /"([A-Za-z0-9_-]{1,64})"(\s*:\s*)"(?:[^"\\]|\\.)*("?)/g;

/**
 * Text that is not whole JSON (a body cut at its size limit, a non-JSON answer): the values of
 * credential-named fields and secret-looking strings replaced as far as the text shows them.
 */
export function redactSecretsInLooseText(text: string): string {
  const fields = text.replace(quotedPair, (match, name: string, separator: string) =>
    isSecretFieldName(name) ? `"${name}"${separator}"${redactedMark}"` : match,
  );
  return redactSecretsInText(fields);
}
