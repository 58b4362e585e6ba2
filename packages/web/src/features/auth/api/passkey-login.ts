import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { api } from '../../../lib/api-client.ts';
import type { PasskeyCeremony } from '../../../lib/passkey-ceremony.ts';
import type { StoredUser } from '../../../lib/stored-user.ts';

/**
 * POST /api/user/passkey/login/begin, the browser's passkey prompt, then /login/finish: the user now
 * logged in. With `flowToken` the passkey is the second factor of a password login; without it, the
 * browser offers the passkeys it holds for this site (a password-less login).
 */
export async function passkeyLogin(flowToken?: string): Promise<StoredUser> {
  const { options } = await api.post<PasskeyCeremony<PublicKeyCredentialRequestOptionsJSON>>(
    '/api/user/passkey/login/begin',
    flowToken ? { flow_token: flowToken } : {},
  );
  return api.post<StoredUser>('/api/user/passkey/login/finish', await startAuthentication({ optionsJSON: options.publicKey }));
}
