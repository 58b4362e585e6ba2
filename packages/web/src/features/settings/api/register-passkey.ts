import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { api } from '../../../lib/api-client.ts';
import type { PasskeyCeremony } from '../../../lib/passkey-ceremony.ts';

/** POST /api/user/passkey/register/begin, the browser's passkey prompt, then /register/finish with the name. */
export async function registerPasskey(name: string): Promise<void> {
  const { options } = await api.post<PasskeyCeremony<PublicKeyCredentialCreationOptionsJSON>>('/api/user/passkey/register/begin', {});
  const credential = await startRegistration({ optionsJSON: options.publicKey });
  await api.post('/api/user/passkey/register/finish', { ...credential, name });
}
