import type { SystemStatus } from '@switchboard/contracts';
import { fillChatLink, chatServerAddress, type ChatLinkTemplate } from '../../../lib/chat-links.ts';
import { useSystemStatus } from '../../../lib/system-status.ts';
import { useFirstTokenKey } from '../api/first-token-key.ts';

/** Where a chat page stands; every state but `ready` has its own message. */
export type ChatLinkState =
  | { kind: 'loading' }
  /** The Chats option has a shape other than [{ name: template }]. */
  | { kind: 'invalid' }
  /** No chat link is configured for this page. */
  | { kind: 'missing' }
  /** The status or the token list could not be read: that is not the same as having no token. */
  | { kind: 'error'; message: string }
  | { kind: 'no-token' }
  /** `template` is what the link was filled from: it says whether the key is in the link. */
  | { kind: 'ready'; name: string; url: string; template: string };

/**
 * The filled link of a chat page: `pick` chooses the template from the status; the user's first
 * enabled key is fetched only once a template exists, then filled in with the server address.
 */
export function useChatLink(pick: (status: SystemStatus) => ChatLinkTemplate | 'invalid' | undefined): ChatLinkState {
  const statusQuery = useSystemStatus();
  // The locally cached status may predate a change of the links: wait for the server's answer.
  const status = statusQuery.isPlaceholderData ? undefined : statusQuery.data;
  const template = status ? pick(status) : undefined;
  const token = useFirstTokenKey(typeof template === 'object');

  if (!status) return statusQuery.isError ? { kind: 'error', message: statusQuery.error.message } : { kind: 'loading' };
  if (template === 'invalid') return { kind: 'invalid' };
  if (!template) return { kind: 'missing' };
  if (token.isError) return { kind: 'error', message: token.error.message };
  if (token.data === undefined) return { kind: 'loading' };
  if (token.data === '') return { kind: 'no-token' };
  return { kind: 'ready', name: template.name, url: fillChatLink(template.url, token.data, chatServerAddress(status)), template: template.url };
}
