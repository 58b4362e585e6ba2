import { useState } from 'react';
import { keyRecipientToConfirm } from '../../../lib/chat-link-trust.ts';
import type { ChatLinkState } from './use-chat-link.ts';

/**
 * For a chat page that opens its link by itself: the host to ask about first (undefined once
 * answered, or when the link carries no key away), and the answer.
 */
export function useKeyLeavingGate(state: ChatLinkState): { host: string | undefined; proceed: () => void } {
  const [confirmedUrl, setConfirmedUrl] = useState<string>();
  const host = state.kind === 'ready' && confirmedUrl !== state.url ? keyRecipientToConfirm(state.template, state.url) : undefined;
  return { host, proceed: () => state.kind === 'ready' && setConfirmedUrl(state.url) };
}
