import type { TokenView } from '@switchboard/contracts';

/** The key as clients send it: the server stores and answers it without `sk-`. */
export function fullKey(token: Pick<TokenView, 'key'>): string {
  return token.key.startsWith('sk-') ? token.key : `sk-${token.key}`;
}
