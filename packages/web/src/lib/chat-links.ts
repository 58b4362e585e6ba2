import type { SystemStatus } from '@switchboard/contracts';

export interface ChatLinkTemplate {
  name: string;
  url: string;
}

/**
 * The configured chat front ends: `Chats` entries first (one-key objects { name: template }), then the
 * older ChatLink / ChatLink2 options as unnamed fallbacks.
 */
export function chatLinkTemplates(status: SystemStatus | undefined): ChatLinkTemplate[] {
  const templates: ChatLinkTemplate[] = [];
  const chats: unknown = status?.chats;
  if (Array.isArray(chats)) {
    for (const entry of chats) {
      if (!entry || typeof entry !== 'object') continue;
      for (const [name, url] of Object.entries(entry as Record<string, unknown>)) if (typeof url === 'string') templates.push({ name, url });
    }
  }
  if (templates.length === 0) {
    for (const url of [status?.chat_link, status?.chat_link2]) if (url) templates.push({ name: 'Chat', url: `${url}/#/?settings={"key":"{key}","url":"{address}"}` });
  }
  return templates;
}
