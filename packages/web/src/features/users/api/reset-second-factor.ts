import { requestEnvelope } from '../../../lib/api-client.ts';

/**
 * DELETE /api/user/:id/2fa (the TOTP second factor) or /api/user/:id/reset_passkey (every passkey):
 * an administrator's reset for a user who lost the device; the server logs it. Answers its message.
 */
export async function resetSecondFactor(userId: number, factor: 'totp' | 'passkeys'): Promise<string> {
  const path = factor === 'totp' ? `/api/user/${userId}/2fa` : `/api/user/${userId}/reset_passkey`;
  return (await requestEnvelope<unknown>('DELETE', path)).message;
}
