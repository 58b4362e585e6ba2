import type { TwoFactorSetup } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/user/2fa/setup: a pending secret, its otpauth URL and ten backup codes (shown once). */
export function setupTwoFactor(): Promise<TwoFactorSetup> {
  return api.post<TwoFactorSetup>('/api/user/2fa/setup', {});
}
