import { api } from './api-client.ts';
import { storedAffiliateCode } from './affiliate-code.ts';

export type OAuthProvider = 'github' | 'linuxdo';

/** The providers' authorize pages; the callback comes back to /oauth/<provider>. */
function authorizeUrl(provider: OAuthProvider, clientId: string, state: string): string {
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  if (provider === 'github') return `https://github.com/login/oauth/authorize?${query({ client_id: clientId, state, scope: 'user:email' })}`;
  return `https://connect.linux.do/oauth2/authorize?${query({ response_type: 'code', client_id: clientId, state })}`;
}

/**
 * Starts a GitHub or LinuxDO login or binding: asks the server for a state string (tied to the
 * session, carrying the inviter code), then sends a new window to the authorize page. The window is
 * opened before the call so popup blockers see it as part of the click.
 */
export async function startOAuth(provider: OAuthProvider, clientId: string): Promise<void> {
  const popup = window.open('', '_blank');
  try {
    const state = await api.get<string>('/api/oauth/state', { aff: storedAffiliateCode() || undefined });
    const url = authorizeUrl(provider, clientId, state);
    if (popup) popup.location.href = url;
    else window.location.assign(url);
  } catch (error) {
    popup?.close();
    throw error;
  }
}
