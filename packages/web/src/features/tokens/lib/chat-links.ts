import type { SystemStatus } from '@switchboard/contracts';

export interface ChatLink {
  name: string;
  url: string;
}

/**
 * The `Chats` option: a JSON array of one-entry objects `{ "<name>": "<url template>" }`; 'invalid' when
 * it has another shape, so the token list can say the configuration is broken instead of hiding the button.
 */
export function chatLinksOf(status: SystemStatus | undefined): ChatLink[] | 'invalid' {
  const chats: unknown = status?.chats;
  if (chats === undefined || chats === null || chats === '') return [];
  if (!Array.isArray(chats)) return 'invalid';
  const links: ChatLink[] = [];
  for (const entry of chats) {
    if (!entry || typeof entry !== 'object') return 'invalid';
    for (const [name, url] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof url !== 'string') return 'invalid';
      links.push({ name, url });
    }
  }
  return links;
}

/**
 * Fills a chat link template: `{cherryConfig}` becomes Cherry Studio's base64 provider config; otherwise
 * `{key}` is the key and `{address}` the URL-encoded server address (as the classic console does).
 */
export function fillChatLink(template: string, key: string, serverAddress: string): string {
  if (template.includes('{cherryConfig}')) {
    const config = btoa(JSON.stringify({ id: 'new-api', baseUrl: serverAddress, apiKey: key }));
    return template.replaceAll('{cherryConfig}', encodeURIComponent(config));
  }
  return template.replaceAll('{key}', key).replaceAll('{address}', encodeURIComponent(serverAddress));
}
