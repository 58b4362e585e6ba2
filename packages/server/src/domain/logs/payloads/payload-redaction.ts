/** What replaces every secret in a stored payload. */
export const redactedMark = '[redacted]';

/**
 * Field names whose values are credentials, compared in lower case without `-` and `_`: so
 * `Authorization`, `api_key`, `apiKey`, `API_KEY`, `x-api-key`, `X-Goog-Api-Key`, `client_secret` all
 * match. `key` and `token` are matched whole (never `max_tokens`, `key_id`).
 */
const secretFieldNames: ReadonlySet<string> = new Set([
  'authorization',
  'proxyauthorization',
  'key',
  'token',
  'cookie',
  'setcookie',
  'credentials',
  'credential',
  'passphrase',
  'passwd',
  'xamzsecuritytoken',
  'ocpapimsubscriptionkey',
]);

/**
 * Name endings that make any field a credential, whatever comes before: `OPENAI_API_KEY`,
 * `AWS_SECRET_ACCESS_KEY`, `private_key`, `client_secret`, `db_password`, `github_token`'s kin
 * (`access_token`, `refresh_token`, `id_token`, `session_token`, `auth_token`).
 */
const secretFieldEndings: readonly string[] = [
  'apikey',
  'secret',
  'secretkey',
  'accesskey',
  'privatekey',
  'password',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'sessiontoken',
  'authtoken',
  'bearertoken',
  'apitoken',
  'credentials',
];

/**
 * Secrets recognised by their shape inside any text, named or not: PEM private keys (to the end of
 * the text when cut), JWTs, OpenAI-style `sk-…` keys (`sk-proj-…`, `sk-ant-…`), AWS access key ids
 * (`AKIA…`, `ASIA…`), Google API keys (`AIza…`), GitHub and Slack tokens, and the credential after
 * `Bearer ` or `Basic `.
 */
const secretPatterns: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];

/** Nesting deeper than this is cut: a payload is for reading, and recursion must stay bounded. */
const maxDepth = 64;

function normalizedFieldName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

export function isSecretFieldName(name: string): boolean {
  const normalized = normalizedFieldName(name);
  return secretFieldNames.has(normalized) || secretFieldEndings.some((ending) => normalized.endsWith(ending));
}

/** The text with every secret-shaped part (keys, tokens, private keys, bearer credentials) replaced. */
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
