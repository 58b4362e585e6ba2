import { api } from '../../../lib/api-client.ts';
import type { RedemptionInput } from './redemption-input.ts';

/** `PUT /api/redemption/`: renames or changes the quota of an unused code. */
export function updateRedemption(id: number, input: RedemptionInput): Promise<unknown> {
  return api.put('/api/redemption/', { ...input, id });
}

/** `PUT /api/redemption/?status_only=true`: enables (1) or disables (2) a code. */
export function setRedemptionStatus(id: number, status: 1 | 2): Promise<unknown> {
  return api.put('/api/redemption/', { id, status }, { status_only: true });
}
