import { requestEnvelope } from '../../../lib/api-client.ts';

/** POST /api/user/aff_transfer: moves pending invitation earnings to the balance; the message says how much. */
export async function transferAffiliateQuota(quota: number): Promise<string> {
  return (await requestEnvelope<unknown>('POST', '/api/user/aff_transfer', { body: { quota } })).message;
}
