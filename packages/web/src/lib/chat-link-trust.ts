/**
 * Chat links that carry the user's API key to another site. A template with `{key}` or
 * `{cherryConfig}` puts the key into the page's address, where that site (its logs, its analytics,
 * the browser's history) can read it; the console asks before opening one, naming the host, unless
 * the user said not to ask again for that host. The choice is this browser's only (localStorage).
 */

const storageKey = 'chatLinkTrustedHosts';

/**
 * The host of another site the key would be sent to, or undefined when the link carries no key,
 * stays on the console's own host, or opens a desktop app on this machine (`cherrystudio://`, which
 * the user opens by an explicit click and which sends the key to no web page).
 */
export function keyRecipientOf(template: string, filledUrl: string, consoleHost: string): string | undefined {
  if (!template.includes('{key}') && !template.includes('{cherryConfig}')) return undefined;
  let url: URL;
  try {
    url = new URL(filledUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.host === consoleHost ? undefined : url.host;
}

function trustedHosts(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(stored) ? stored.filter((host): host is string => typeof host === 'string') : [];
  } catch {
    return [];
  }
}

export function isTrustedKeyRecipient(host: string): boolean {
  return trustedHosts().includes(host);
}

/** "Don't ask again for this host". */
export function trustKeyRecipient(host: string): void {
  const hosts = trustedHosts();
  if (!hosts.includes(host)) localStorage.setItem(storageKey, JSON.stringify([...hosts, host]));
}

/** The host to ask about before opening `filledUrl`, or undefined when no question is needed. */
export function keyRecipientToConfirm(template: string, filledUrl: string, consoleHost = window.location.host): string | undefined {
  const host = keyRecipientOf(template, filledUrl, consoleHost);
  return host && !isTrustedKeyRecipient(host) ? host : undefined;
}
