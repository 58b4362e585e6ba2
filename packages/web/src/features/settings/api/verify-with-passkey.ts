import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { api } from '../../../lib/api-client.ts';
import type { PasskeyCeremony } from '../../../lib/passkey-ceremony.ts';

/** POST /api/user/passkey/verify/begin, the browser's passkey prompt, then /verify/finish: re-verified for five minutes. */
export async function verifyWithPasskey(): Promise<void> {
  const { options } = await api.post<PasskeyCeremony<PublicKeyCredentialRequestOptionsJSON>>('/api/user/passkey/verify/begin', {});
  await api.post('/api/user/passkey/verify/finish', await startAuthentication({ optionsJSON: options.publicKey }));
}
