import type { SystemStatus } from '@switchboard/contracts';
import { safeChatLink, safeWebLink } from './safe-url.ts';

/**
 * The one place that reads the configured chat front ends and fills their templates, for the side
 * menu, the token page's Chat button, `/chat/{id}` and `/chat2link`. The rules are new-api's classic
 * console's, so links an administrator copied from there behave the same here.
 */
export interface ChatLinkTemplate {
  /** The menu and button label: the entry's key in `Chats`. */
  name: string;
  /** The URL with `{key}`, `{address}` or `{cherryConfig}` placeholders. */
  url: string;
}

/**
 * The `Chats` option: a JSON array of one-entry objects `{ "<name>": "<template>" }`. Any other shape
 * is 'invalid', so screens can say the configuration is broken instead of quietly showing nothing.
 * The older ChatLink / ChatLink2 options do not feed this list (new-api's console ignores them here).
 * A link a browser must not follow (`javascript:`, new-api's bare `fluentread`…) is left out, not shown.
 */
export function chatLinksOf(status: SystemStatus | undefined): ChatLinkTemplate[] | 'invalid' {
  const chats: unknown = status?.chats;
  if (chats === undefined || chats === null || chats === '') return [];
  if (!Array.isArray(chats)) return 'invalid';
  const links: ChatLinkTemplate[] = [];
  for (const entry of chats) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return 'invalid';
    const pairs = Object.entries(entry as Record<string, unknown>);
    if (pairs.length === 0) return 'invalid';
    for (const [name, url] of pairs) {
      if (typeof url !== 'string' || url.trim() === '') return 'invalid';
      if (safeChatLink(url)) links.push({ name, url });
    }
  }
  return links;
}

/** The links for menus: none when the configuration is broken (the chat pages explain why). */
export function chatLinkTemplates(status: SystemStatus | undefined): ChatLinkTemplate[] {
  const links = chatLinksOf(status);
  return links === 'invalid' ? [] : links;
}

/** ChatGPT-Next-Web's settings URL, which `/chat2link` builds from the ChatLink option as new-api does. */
function nextChatTemplate(base: string): string {
  return `${base.replace(/\/+$/, '')}/#/?settings={"key":"{key}","url":"{address}"}`;
}

/**
 * What `/chat2link` redirects to: the ChatLink option in Next-Web form when set (new-api's rule), else
 * the first configured front end that a browser can open (a desktop app's link cannot be a redirect).
 */
export function chat2LinkTemplate(status: SystemStatus | undefined): ChatLinkTemplate | 'invalid' | undefined {
  const chatLink = safeWebLink(status?.chat_link);
  if (chatLink) return { name: 'ChatLink', url: nextChatTemplate(chatLink) };
  const links = chatLinksOf(status);
  if (links === 'invalid') return links;
  return links.find((link) => isWebLink(link.url));
}

/** The address chat front ends call: ServerAddress, else the address the console is served from. */
export function chatServerAddress(status: SystemStatus | undefined): string {
  return status?.server_address || window.location.origin;
}

/** Base64 of UTF-8 text (`btoa` alone only takes Latin-1, and a server address may not be ASCII). */
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/**
 * Fills a template the classic way. `{cherryConfig}` becomes Cherry Studio's provider config (base64
 * JSON, then URL-encoded) and nothing else is replaced; otherwise `{address}` becomes the URL-encoded
 * server address and `{key}` the full `sk-` key. `key` may be given with or without its `sk-` prefix
 * (the token list sends it without).
 */
export function fillChatLink(template: string, key: string, serverAddress: string): string {
  const fullKey = key.startsWith('sk-') ? key : `sk-${key}`;
  if (template.includes('{cherryConfig}')) {
    const config = base64(JSON.stringify({ id: 'new-api', baseUrl: serverAddress, apiKey: fullKey }));
    return template.replaceAll('{cherryConfig}', encodeURIComponent(config));
  }
  return template.replaceAll('{address}', encodeURIComponent(serverAddress)).replaceAll('{key}', fullKey);
}

/** Whether a filled link is a web page (framed or opened in a tab) rather than a desktop app's scheme. */
export function isWebLink(url: string): boolean {
  return safeWebLink(url) !== undefined;
}
