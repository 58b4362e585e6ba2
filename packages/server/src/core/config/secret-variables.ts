/**
 * The environment variables whose values are secrets: passwords, tokens, signing keys and DSNs that
 * may hold a database or Redis password. None of the variables read from the environment names an
 * OAuth or SMTP secret (those are console options, stored in the database).
 */
export const secretVariables = [
  'SESSION_SECRET',
  'CRYPTO_SECRET',
  'SQL_DSN',
  'LOG_SQL_DSN',
  'REDIS_CONN_STRING',
  'METRICS_TOKEN',
  'INITIAL_ROOT_PASSWORD',
  // A trace collector's API key travels in these.
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
] as const;

const secretNames: ReadonlySet<string> = new Set(secretVariables);

export function isSecretVariable(name: string): boolean {
  return secretNames.has(name);
}

/** Shorter fragments are not replaced in free text: they would mangle ordinary words, and no error quotes them. */
const shortestHiddenFragment = 4;

/** The password of a DSN or URL (`scheme://user:pw@host`, `user:pw@tcp(…)`, `:pw@host:6379`), if it has one. */
function passwordOf(value: string): string | undefined {
  const withoutScheme = value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const at = withoutScheme.lastIndexOf('@');
  if (at < 0) return undefined;
  const userInfo = withoutScheme.slice(0, at);
  const colon = userInfo.indexOf(':');
  return colon < 0 ? undefined : userInfo.slice(colon + 1);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Credentials written into any URL or Go-style DSN in `text`: `//user:***@`, `user:***@tcp(`. */
function maskUrlCredentials(text: string): string {
  return text.replace(/(\/\/[^/@\s]*?:)[^@\s]*@/g, '$1***@').replace(/(^|[\s(])([^\s:@/(]*:)[^@\s]*@tcp\(/g, '$1$2***@tcp(');
}

/**
 * `text` (a start-up error about to be printed) without any secret: URL credentials masked, and every
 * secret variable's value and DSN password replaced by `***`, whichever code produced the message.
 */
export function hideSecrets(text: string, env: Record<string, string | undefined>): string {
  const fragments = new Set<string>();
  for (const name of secretVariables) {
    const value = env[name]?.trim();
    if (!value) continue;
    const password = passwordOf(value);
    for (const fragment of [value, password, password === undefined ? undefined : decoded(password)]) {
      if (fragment !== undefined && fragment.length >= shortestHiddenFragment) fragments.add(fragment);
    }
  }
  let hidden = text;
  // Longest first, so a DSN is replaced whole before its password alone is looked for.
  for (const fragment of [...fragments].sort((a, b) => b.length - a.length)) hidden = hidden.split(fragment).join('***');
  return maskUrlCredentials(hidden);
}
