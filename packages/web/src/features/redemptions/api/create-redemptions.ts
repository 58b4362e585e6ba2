import { api } from '../../../lib/api-client.ts';
import type { RedemptionInput } from './redemption-input.ts';

/** `POST /api/redemption/` `{name, quota, count}`: answers the generated codes. */
export function createRedemptions(input: RedemptionInput, count: number): Promise<string[]> {
  return api.post<string[] | null>('/api/redemption/', { ...input, count }).then((keys) => keys ?? []);
}
