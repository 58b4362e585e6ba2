import type { ChannelView, TokenView } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { getListPage } from '../../../lib/list-dialect.ts';
import { getSetupState } from '../../../lib/setup-state.ts';

/** How far an administrator is from the gateway's first answered call, read from the lists they already have. */
export interface FirstCallProgress {
  setupDone: boolean;
  /** The first channel, whose first model the example call names. */
  channel: ChannelView | undefined;
  /** The caller's first token, whose key the example call carries (masked when a second factor is set). */
  token: TokenView | undefined;
  /** A consume log row exists: some relay call was answered and charged. */
  called: boolean;
}

export const firstCallProgressKey = ['first-call-progress'] as const;

async function readProgress(signal: AbortSignal): Promise<FirstCallProgress> {
  const [setup, channels, tokens, calls] = await Promise.all([
    getSetupState(signal),
    getListPage<ChannelView>('/api/channel/', {}, 0, 1, signal),
    getListPage<TokenView>('/api/token/', {}, 0, 1, signal),
    // Type 2 is a consume row: written only for an answered relay call.
    getListPage<unknown>('/api/log/', { type: 2 }, 0, 1, signal),
  ]);
  return { setupDone: setup.status, channel: channels[0], token: tokens[0], called: calls.length > 0 };
}

/** Read on every visit to the home page and when the window regains focus (the operator comes back from a terminal). */
export function useFirstCallProgress(enabled: boolean) {
  return useQuery({ queryKey: firstCallProgressKey, queryFn: ({ signal }) => readProgress(signal), enabled, refetchOnWindowFocus: 'always', staleTime: 0 });
}
